// Every call to the server goes through here, so the session rules of spec section 8 live in one place:
// a 401 ends the session (except on the login call, where 401 means wrong credentials; a caller that explains the
// expiry itself may stay on its page) and a 402 sends the user to the upgrade screen (except for the billing calls).
import { assignLocation } from './browser';
import { clearAuthToken, getAuthToken } from './auth-token';
import { LOGIN_ROUTE, UPGRADE_ROUTE } from './routes';

export const API_BASE_PATH = '/api';
/** The login call answers 401 for wrong credentials; that must not end a session or redirect. */
const LOGIN_CALL = '/auth/login';

/** An HTTP error from the API, carrying the parsed body so screens can show the server's own words. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** The server's message from an error body: `message`, or `Message` from older servers. */
export function messageFromBody(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'Message']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** The server's message for a failed call, or the screen's own fallback text (network down, or no message sent). */
export function serverMessageOr(error: unknown, fallback: string): string {
  return error instanceof ApiError ? (messageFromBody(error.body) ?? fallback) : fallback;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /**
   * false for a screen that explains an expired session itself (the OAuth callback): a 401 still removes the
   * stale token, but the page stays where it is instead of being sent to /login.
   */
  redirectOnUnauthorized?: boolean;
  /**
   * false for a screen open to everyone that shows a premium part in place (Settings' report preferences): a 402
   * is then only an error for that part, not a trip to the upgrade screen.
   */
  redirectOnPaymentRequired?: boolean;
}

export interface ApiClientDependencies {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  getToken: () => string | null;
  /** `quiet`: a full page load follows at once, so nothing on the page needs to hear of it (clearAuthToken). */
  clearToken: (options?: { quiet?: boolean }) => void;
  /** A full page load; the app state is thrown away on purpose after a 401. */
  redirect: (url: string) => void;
  warn: (...data: unknown[]) => void;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  delete<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<T>;
  /** A file the server sends as an attachment (exports): the body as a Blob and the server's file name. */
  download(path: string, options?: Omit<RequestOptions, 'method' | 'body'>): Promise<DownloadedFile>;
}

export interface DownloadedFile {
  blob: Blob;
  /** From Content-Disposition; null when the server named none. */
  fileName: string | null;
}

/** The file name of `Content-Disposition: attachment; filename="..."` (our server sends plain ASCII names). */
export function fileNameFromDisposition(header: string | null): string | null {
  const match = header ? /filename="([^"]+)"|filename=([^;\s]+)/i.exec(header) : null;
  const name = match ? (match[1] ?? match[2] ?? '') : '';
  // Only a bare name: never a path the browser could be asked to write elsewhere.
  const bare = name.split(/[\\/]/).pop()?.trim() ?? '';
  return bare === '' ? null : bare;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createApiClient(dependencies: ApiClientDependencies): ApiClient {
  function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
    const headers: Record<string, string> = { Accept: accept };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const token = dependencies.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    return dependencies.fetch(`${API_BASE_PATH}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  }

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const response = await send(path, options, 'application/json');
    const body = await readBody(response);
    if (response.ok) return body as T;
    return fail(path, options, response, body);
  }

  async function download(path: string, options: RequestOptions = {}): Promise<DownloadedFile> {
    const response = await send(path, options, '*/*');
    if (!response.ok) return fail(path, options, response, await readBody(response));
    return { blob: await response.blob(), fileName: fileNameFromDisposition(response.headers.get('content-disposition')) };
  }

  /** The session rules for an error answer, then the error with the server's own words. */
  function fail(path: string, options: RequestOptions, response: Response, body: unknown): never {
    if (response.status === 401 && path !== LOGIN_CALL) {
      if (options.redirectOnUnauthorized !== false) {
        dependencies.clearToken({ quiet: true });
        dependencies.redirect(LOGIN_ROUTE);
      } else {
        dependencies.clearToken();
      }
    } else if (response.status === 402) {
      dependencies.warn(`Payment required for ${path}`, body);
      if (!path.includes('/stripe/') && options.redirectOnPaymentRequired !== false) dependencies.redirect(UPGRADE_ROUTE);
    }

    throw new ApiError(
      response.status,
      messageFromBody(body) ?? `Request failed with status ${response.status}`,
      body,
    );
  }

  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
    delete: (path, options) => request(path, { ...options, method: 'DELETE' }),
    download: (path, options) => download(path, { ...options, method: 'GET' }),
  };
}

/** The app's client: real fetch, the stored token, full-page redirects. */
export const api = createApiClient({
  fetch: (input, init) => fetch(input, init),
  getToken: getAuthToken,
  clearToken: clearAuthToken,
  redirect: assignLocation,
  warn: (...data) => console.warn(...data),
});
