// The show/hide button of a password field. Its name avoids the word "password" so that the field's
// label stays the only element labelled "Password" (for people using voice control, and for tests).
export const visibilityToggleProps = { 'aria-label': 'Show or hide the characters typed' } as const;
