// What Mantine's AppShell sections (header, footer, aside) take from react-remove-scroll: the class
// names that keep a fixed section clear of the scrollbar while a modal locks the page's scroll.
// Importing the package for two strings brought the whole of it (its side car, the scrollbar's
// styles, tslib: about 4 KB gzipped) into the first page's code, which shows no modal; a modal's
// own code brings the package, whose RemoveScroll.classNames are these same strings
// (remove-scroll-class-names.test.ts). web/vite.config.ts puts this module in its place for the
// AppShell's sections.
export const RemoveScroll = {
  classNames: {
    fullWidth: 'width-before-scroll-bar',
    zeroRight: 'right-scroll-bar-position',
  },
} as const;
