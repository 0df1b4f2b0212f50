// The date form's trainers against a fake API: the chosen ones as chips removed from the keyboard, a
// search of the people who may run the date (the date's organisation asked for when editing one),
// chosen with the arrow keys and Enter, and the set sent with the date; the server's refusal shown
// on the field.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrainerCandidate } from '@shared/sessions.ts';
import { fakeApi, type FakeRequest } from '@/test/fake-api';
import { renderWithProviders } from '@/test/render';
import { SessionDialog } from './SessionDialog';
import { makeSession, MODULE } from '../test-fixtures';

const ORG = '50000000-0000-4000-8000-000000000001';
const TOM = '60000000-0000-4000-8000-000000000001';
const ALICE = '60000000-0000-4000-8000-000000000002';
const REFUSED = "Each trainer is an administrator, or an instructor of the course's service, of the session's organisation";

const people: TrainerCandidate[] = [
  { id: ALICE, name: 'Alice Jones', username: 'alice' },
  { id: TOM, name: 'Tom Trainer', username: 'tom' },
];
/** The server's search: by name or username, case aside. */
const search = (request: FakeRequest) => {
  const q = (new URL(request.path, 'http://x').searchParams.get('q') ?? '').toLowerCase();
  return { body: people.filter((p) => p.name.toLowerCase().includes(q) || p.username.includes(q)) };
};

afterEach(() => vi.restoreAllMocks());

describe("the date form's trainers", () => {
  const session = makeSession({ organisationId: ORG, trainers: [{ id: TOM, name: 'Tom Trainer' }] });

  it('removes a chip from the keyboard, adds a person found by the search and sends the trainers', async () => {
    const api = fakeApi({
      [`GET /modules/${MODULE}/trainers`]: search,
      [`PATCH /sessions/${session.id}`]: (request) => ({ body: { ...session, trainers: [{ id: ALICE, name: 'Alice Jones' }], request } }),
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<SessionDialog moduleId={MODULE} session={session} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog');
    const chosen = within(dialog).getByRole('list', { name: 'Chosen trainers' });
    expect(within(chosen).getAllByRole('listitem').map((chip) => chip.textContent)).toEqual(['Tom Trainer']);

    // The chip's remove button is in the tab order and named for the person.
    const remove = within(chosen).getByRole('button', { name: 'Remove Tom Trainer' });
    remove.focus();
    await user.keyboard('{Enter}');
    expect(within(dialog).queryByRole('list', { name: 'Chosen trainers' })).not.toBeInTheDocument();
    expect(within(dialog).getByText('No trainers chosen yet')).toBeInTheDocument();

    const field = within(dialog).getByLabelText('Trainers', { selector: 'input' });
    await user.type(field, 'ali');
    // The server's answer for the words replaces the first one's.
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Tom Trainer (@tom)' })).not.toBeInTheDocument());
    expect(screen.getByRole('option', { name: 'Alice Jones (@alice)' })).toBeInTheDocument();
    await user.keyboard('{ArrowDown}{Enter}');
    const chips = within(dialog).getByRole('list', { name: 'Chosen trainers' });
    expect(within(chips).getAllByRole('listitem').map((chip) => chip.textContent)).toEqual(['Alice Jones']);
    expect(field).toHaveValue('');
    // The search asked for the date's organisation.
    expect(api.requests.some((r) => r.path.startsWith(`/modules/${MODULE}/trainers?`) && r.path.includes(`organisationId=${ORG}`))).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.requests.find((r) => r.method === 'PATCH')?.body).toMatchObject({ trainerIds: [ALICE] });
  });

  it("shows the server's refusal of a trainer on the field", async () => {
    fakeApi({
      [`GET /modules/${MODULE}/trainers`]: search,
      [`PATCH /sessions/${session.id}`]: { status: 400, body: { message: 'Validation failed', fields: { trainerIds: REFUSED } } },
    });
    const { user } = renderWithProviders(<SessionDialog moduleId={MODULE} session={session} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText(REFUSED)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Trainers', { selector: 'input' })).toHaveAccessibleDescription(expect.stringContaining(REFUSED));
  });
});
