// The colour scheme menu in the header, its code loaded with its first use (LazyMenu.tsx).
import { lazyMenu } from './LazyMenu';
import { ThemeButton } from './ThemeButton';

const ThemeMenu = lazyMenu(() => import('./ThemeMenu'));

export function ThemeToggle() {
  return <ThemeMenu button={(handlers) => <ThemeButton {...handlers} />} />;
}
