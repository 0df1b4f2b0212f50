import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { Link, MemoryRouter, Outlet, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useFocusHeadingOnNavigate } from './focus-heading';

function Layout() {
  useFocusHeadingOnNavigate('main-content');
  return (
    <main id="main-content">
      <Outlet />
    </main>
  );
}

/** A page whose loading state has a heading of its own, replaced by the loaded page's. */
function LoadingThenLoaded({ loaded }: { loaded: Promise<void> }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void loaded.then(() => setReady(true));
  }, [loaded]);
  return ready ? (
    <section>
      <h1>Safeguarding</h1>
      <button type="button">Enrol</button>
    </section>
  ) : (
    <div>
      <h1>Loading course</h1>
    </div>
  );
}

function renderApp(loaded: Promise<void>) {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route element={<Layout />}>
          <Route path="/" element={<><h1>Courses</h1><Link to="/course">Safeguarding</Link></>} />
          <Route path="/course" element={<LoadingThenLoaded loaded={loaded} />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('focus after navigation', () => {
  it('leaves the first load alone, then gives focus to the loaded page’s h1 when it replaces the loading one', async () => {
    let finishLoading = () => {};
    const loaded = new Promise<void>((resolve) => { finishLoading = resolve; });
    renderApp(loaded);
    expect(document.activeElement).toBe(document.body);

    await userEvent.click(screen.getByRole('link', { name: 'Safeguarding' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Loading course' })));
    await act(async () => finishLoading());
    const heading = await screen.findByRole('heading', { name: 'Safeguarding' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.tabIndex).toBe(-1);
  });

  it('keeps focus where the person put it while the page loads', async () => {
    let finishLoading = () => {};
    const loaded = new Promise<void>((resolve) => { finishLoading = resolve; });
    renderApp(loaded);
    await userEvent.click(screen.getByRole('link', { name: 'Safeguarding' }));
    await act(async () => finishLoading());
    const button = await screen.findByRole('button', { name: 'Enrol' });
    await waitFor(() => expect(document.activeElement?.tagName).toBe('H1'));
    button.focus();
    await act(async () => {
      button.after(document.createElement('p')); // a later change to the page
    });
    expect(document.activeElement).toBe(button);
  });
});
