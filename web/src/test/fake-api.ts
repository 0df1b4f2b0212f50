// Answers the api function's requests in a unit test without a server: `fakeApi({ 'POST /organisations/x/domains': ... })`
// replaces fetch for the test (restored by vi.restoreAllMocks), and records each request to the API
// (method, path with its query, JSON body). A request with no answer gets a 500 and is named in
// `unanswered`.
import { vi } from 'vitest';
import { apiBaseUrl } from '@/lib/api-client';

export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
}

export type FakeAnswer = { status?: number; body?: unknown } | ((request: FakeRequest) => { status?: number; body?: unknown });

export function fakeApi(answers: Record<string, FakeAnswer>) {
  const requests: FakeRequest[] = [];
  const unanswered: string[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.startsWith(apiBaseUrl) ? url.slice(apiBaseUrl.length) : url;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const request = { method, path, body };
    requests.push(request);
    const answer = answers[`${method} ${path}`] ?? answers[`${method} ${path.split('?')[0]}`];
    if (!answer) {
      unanswered.push(`${method} ${path}`);
      return new Response(JSON.stringify({ message: `Not answered by the test: ${method} ${path}` }), { status: 500 });
    }
    const { status = 200, body: payload } = typeof answer === 'function' ? answer(request) : answer;
    return new Response(payload === undefined ? null : JSON.stringify(payload), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  return { requests, unanswered, spy };
}
