// A header menu whose code loads with its first use. Mantine's Menu brings its Popover, focus trap
// and portal (about 17 KB gzipped), which no visitor's first page needs (the budget of
// `npm run bench:web`): until pressed, the header shows the menu's button alone, drawn by the same
// component, and the code starts loading as the pointer or the focus reaches it. The press that
// loaded it opens it, with the focus on its button, as if the menu had been there all along.
import { lazy, Suspense, useState, type ComponentType, type ReactElement } from 'react';

/** Given to the loaded menu: open at once (its button focused and pressed), the way the first press asked. */
export interface OpenOnMount {
  openOnMount: boolean;
}

/** What the placeholder button does: start loading, and load and open on press. */
export interface PlaceholderHandlers {
  onPointerEnter: () => void;
  onFocus: () => void;
  onClick: () => void;
}

export function lazyMenu<P extends object>(load: () => Promise<{ default: ComponentType<P & OpenOnMount> }>) {
  const LoadedMenu = lazy(load);
  let loading: Promise<unknown> | null = null;
  const preload = () => {
    loading ??= load();
  };
  return function LazyMenu(props: P & { button: (handlers: PlaceholderHandlers) => ReactElement }) {
    const { button, ...menuProps } = props;
    const [wanted, setWanted] = useState(false);
    const placeholder = button({ onPointerEnter: preload, onFocus: preload, onClick: () => setWanted(true) });
    if (!wanted) return placeholder;
    return (
      <Suspense fallback={placeholder}>
        <LoadedMenu {...(menuProps as P)} openOnMount />
      </Suspense>
    );
  };
}
