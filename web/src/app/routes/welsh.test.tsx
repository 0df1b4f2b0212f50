// The first pages a person sees, in Welsh: the sign-in page (with "Sign in with your organisation")
// and the accessibility statement, which a UK public body publishes in full in both languages.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { routes } from '@/app/routes';
import { i18n } from '@/lib/i18n/i18n';
import { renderWithProviders } from '@/test/render';

describe('in Welsh', () => {
  it('the sign-in page reads in Welsh, Sign in with your organisation included', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(null, { routes, route: '/auth' });
    expect(await screen.findByRole('heading', { level: 1, name: "Mewngofnodi i'ch cyfrif" })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Mewngofnodi' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Creu cyfrif' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Mewngofnodi' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Enw defnyddiwr/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Wedi anghofio'ch cyfrinair?" })).toHaveAttribute('href', '/auth/forgot');
    expect(screen.getByRole('heading', { level: 2, name: "Mewngofnodi gyda'ch sefydliad" })).toBeInTheDocument();
    expect(screen.getByLabelText('E-bost gwaith')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: "Parhau i'ch sefydliad" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Yn ôl i'r hafan" })).toHaveAttribute('href', '/');
    expect(document.title).toMatch(/^Mewngofnodi/);
  });

  it('the accessibility statement reads in full in Welsh, and says the service is in Welsh and English', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(null, { routes, route: '/accessibility' });
    expect(await screen.findByRole('heading', { level: 1, name: /^Datganiad hygyrchedd ar gyfer / })).toBeInTheDocument();
    for (const name of ["Pa mor hygyrch yw'r wefan hon", 'Adborth a gwybodaeth gyswllt', 'Y drefn orfodi', "Sut y gwnaethom brofi'r wefan hon"]) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    expect(screen.getByTestId('compliance-status')).toHaveTextContent("Mae'r wefan hon yn cydymffurfio'n rhannol â safon AA fersiwn 2.2");
    expect(screen.getByTestId('last-tested')).toHaveTextContent(/phrofi ddiwethaf ar \d+\sTachwedd\s2026/);
    expect(screen.getByText(/ar gael yn Gymraeg ac yn Saesneg/)).toBeInTheDocument();
    expect(screen.getByText(/1366 picsel a 390 picsel/)).toBeInTheDocument();
    expect(screen.getByText(/Comisiwn Cydraddoldeb a Hawliau Dynol \(EHRC\)/)).toBeInTheDocument();
  });
});
