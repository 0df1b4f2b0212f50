// A requirement satisfied by another issuer's credential says where from and until when, in English
// and in Welsh, and whether the person added it or earned it here.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n/i18n';
import { renderWithProviders } from '@/test/render';
import { RecognisedFrom } from './RecognisedFrom';

const origin = { source: 'platform' as const, issuerName: 'Southshire Ambulance Service NHS Trust', achievementName: 'Manual Handling', validUntil: '2027-11-22T10:00:00.000Z' };

describe('RecognisedFrom', () => {
  it('names the achievement, its issuer and its expiry', () => {
    renderWithProviders(<RecognisedFrom origin={origin} />);
    expect(screen.getByText('From Manual Handling (Southshire Ambulance Service NHS Trust), until 22 November 2027. A certificate earned on this platform.')).toBeInTheDocument();
  });

  it('says when it does not expire, and when the person added it, in Welsh', async () => {
    await i18n.changeLanguage('cy');
    renderWithProviders(<RecognisedFrom origin={{ ...origin, source: 'upload', validUntil: null }} />);
    expect(screen.getByText("O Manual Handling (Southshire Ambulance Service NHS Trust), heb ddyddiad dod i ben. Tystlythyr a ychwanegwyd at y pasbort.")).toBeInTheDocument();
  });
});
