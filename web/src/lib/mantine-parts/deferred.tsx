// Parts of Mantine that a component of the first page imports but the app never has it render:
// the resize handle of a resizable AppShell (the app's shell is not resizable), and the Collapse
// and chevron of a NavLink with nested links (the sidebar's links have none). Each loads with its
// first render instead, in a chunk of its own, so none of them is in the first page's code.
// web/vite.config.ts puts this module in their place for those importers only; the app's own
// imports of @mantine/core are untouched.
import { lazy, Suspense, type ComponentType } from 'react';

type Part = ComponentType<Record<string, unknown>>;

function deferred(load: () => Promise<Part>): Part {
  const Loaded = lazy(() => load().then((Component) => ({ default: Component })));
  return function DeferredPart(props) {
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

// `mantine-part:` names a file of @mantine/core's esm build (web/vite.config.ts).
export const AppShellResizeHandle = deferred(() =>
  import('mantine-part:components/AppShell/AppShellResizeHandle/AppShellResizeHandle.mjs').then((m) => m.AppShellResizeHandle));
export const Collapse = deferred(() => import('mantine-part:components/Collapse/Collapse.mjs').then((m) => m.Collapse));
export const AccordionChevron = deferred(() =>
  import('mantine-part:components/Accordion/AccordionChevron.mjs').then((m) => m.AccordionChevron));
