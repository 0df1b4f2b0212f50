// Course content in the reader's language: the Welsh where there is one, else the English marked as
// a fallback (and only for a Welsh reader); a message with a course text in it puts English in its own lang span.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Interpolated, localise, SLOT } from './Localised';

describe('localise', () => {
  it('gives a Welsh reader the Welsh, or the English as a fallback', () => {
    expect(localise('Triage', 'Brysbennu', 'cy')).toEqual({ text: 'Brysbennu', lang: 'cy', fallback: false });
    expect(localise('Triage', null, 'cy')).toEqual({ text: 'Triage', lang: 'en-GB', fallback: true });
    expect(localise('Triage', '  ', 'cy')).toEqual({ text: 'Triage', lang: 'en-GB', fallback: true });
  });

  it('gives an English reader the English, never a fallback', () => {
    expect(localise('Triage', 'Brysbennu', 'en-GB')).toEqual({ text: 'Triage', lang: 'en-GB', fallback: false });
    expect(localise('Triage', null, 'en-GB')).toEqual({ text: 'Triage', lang: 'en-GB', fallback: false });
  });
});

describe('Interpolated', () => {
  it('puts English shown to a Welsh reader in its own lang="en-GB" span', () => {
    const { container } = render(<p>{<Interpolated message={`Cwis: ${SLOT}!`} value={localise('JESIP check', null, 'cy')} />}</p>);
    expect(container.querySelector('p')).toHaveTextContent('Cwis: JESIP check!');
    expect(screen.getByText('JESIP check')).toHaveAttribute('lang', 'en-GB');
  });

  it('leaves a text in the reader\'s language in the message as it is', () => {
    const { container } = render(<p>{<Interpolated message={`Cwis: ${SLOT}`} value={localise('JESIP check', 'Prawf JESIP', 'cy')} />}</p>);
    expect(container.querySelector('p')?.innerHTML).toBe('Cwis: Prawf JESIP');
  });
});
