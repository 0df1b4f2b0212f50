// In place of Mantine's AppShellResizeHandle (web/vite.config.ts), which a section renders only
// when the AppShell is given `resize`. The app's shell is not resizable (app/layout/AppLayout.tsx),
// so the handle's code (pointer and keyboard dragging, clamping: about 2 KB gzipped) is left out of
// the first page's. Should a shell be made resizable, this says so rather than drawing no handle.
export function AppShellResizeHandle(): never {
  throw new Error('AppShell resize handles are left out of the build (web/vite.config.ts): remove that plugin to make a section resizable.');
}
