// Auth's own emails in the person's language: supabase/config.toml's templates
// (`[auth.email.template.*]`, supabase/templates/*.html) rendered by the local Auth as hosted Auth
// renders them, from the person's user_metadata (.Data.language, kept equal to profiles.language).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { authSettingsFromConfig } from './auth.mjs';
import { renderAuthEmail, renderAuthTemplate } from './auth/email-templates.mjs';

const toml = fs.readFileSync(new URL('../supabase/config.toml', import.meta.url), 'utf8');
const { emailTemplates } = authSettingsFromConfig(toml, {});
const link = 'https://learn.example.test/auth/v1/verify?token=abc&type=recovery&redirect_to=x';

describe('Auth email templates', () => {
  it('config.toml gives every Auth email the project sends a template', () => {
    expect(Object.keys(emailTemplates).sort()).toEqual(['email_change', 'invite', 'magic_link', 'reauthentication', 'recovery']);
  });

  it('recovery: Welsh for a person whose language is cy, English (as before) otherwise', () => {
    const welsh = renderAuthEmail(emailTemplates, 'recovery', { ConfirmationURL: link, Data: { language: 'cy' } });
    expect(welsh?.subject).toBe('Ailosod eich cyfrinair');
    expect(welsh?.text).toContain(`Dewiswch gyfrinair newydd: ${link}`);
    expect(welsh?.html).toContain('<html lang="cy">');
    expect(welsh?.html).toContain('href="https://learn.example.test/auth/v1/verify?token=abc&amp;type=recovery&amp;redirect_to=x"');
    expect(welsh?.text).not.toMatch(/password|link works/i);
    for (const data of [{ language: 'en-GB' }, {}, null]) {
      const english = renderAuthEmail(emailTemplates, 'recovery', { ConfirmationURL: link, Data: data });
      expect(english?.subject).toBe('Reset your password');
      expect(english?.text).toBe([
        'Someone asked to reset the password for this email address.',
        '',
        `Choose a new password: ${link}`,
        '',
        'The link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.',
      ].join('\n'));
    }
  });

  it('reauthentication and email change, in both languages, to the current and the new address', () => {
    expect(renderAuthEmail(emailTemplates, 'reauthentication', { Token: '123456', Data: { language: 'cy' } }))
      .toMatchObject({ subject: 'Cadarnhau ailddilysu', text: 'Rhowch y cod: 123456' });
    expect(renderAuthEmail(emailTemplates, 'reauthentication', { Token: '123456', Data: {} }))
      .toMatchObject({ subject: 'Confirm reauthentication', text: 'Enter the code: 123456' });
    const change = (language, sendingTo) => renderAuthEmail(emailTemplates, 'email_change',
      { Token: '654321', NewEmail: 'new@example.test', SendingTo: sendingTo, Data: { language } });
    expect(change('cy', 'old@example.test')?.text).toBe("Cadarnhewch y newid i'ch cyfeiriad e-bost i new@example.test gyda'r cod: 654321");
    expect(change('cy', 'new@example.test')?.text).toBe("Cadarnhewch y cyfeiriad e-bost newydd hwn gyda'r cod: 654321");
    expect(change('en-GB', 'old@example.test')).toMatchObject({ subject: 'Confirm email change', text: 'Confirm the change of your email to new@example.test with the code: 654321' });
    expect(change('en-GB', 'new@example.test')?.text).toBe('Confirm this new email address with the code: 654321');
  });

  it('renders the Go template subset the templates use, escaping values, and refuses the rest', () => {
    expect(renderAuthTemplate('{{ if and .Data.language (eq .Data.language "cy") }}A{{ else }}B{{ end }}', { Data: { language: 'cy' } })).toBe('A');
    expect(renderAuthTemplate('{{ if and .Data.language (eq .Data.language "cy") }}A{{ else }}B{{ end }}', {})).toBe('B');
    expect(renderAuthTemplate('<b>{{ .Email }}</b>', { Email: '<x@y>' })).toBe('<b>&lt;x@y&gt;</b>');
    expect(() => renderAuthTemplate('{{ printf "%s" .Email }}', {})).toThrow(/not supported/);
    expect(() => renderAuthTemplate('{{ if .Email }}x', {})).toThrow(/without/);
  });
});
