import { describe, expect, it } from 'vitest';
import { RemoveScroll as RealRemoveScroll } from 'react-remove-scroll';
import { RemoveScroll } from './remove-scroll-class-names';

describe("the AppShell's scrollbar class names", () => {
  it("are react-remove-scroll's, which a modal uses to keep the fixed header clear of the scrollbar", () => {
    expect(RemoveScroll.classNames).toEqual(RealRemoveScroll.classNames);
  });
});
