// HTTP clients that behave like the two kinds of API client: a browser
// (cookie jar, CSRF header from the csrftoken cookie) and an app (session
// token taken from meta.session_token, cookies ignored).

export interface ApiResponse {
  status: number;
  body: any;
  headers: Headers;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class ApiClient {
  readonly cookies = new Map<string, string>();
  sessionToken: string | undefined;

  constructor(
    readonly baseUrl: string,
    readonly kind: 'browser' | 'app',
  ) {}

  /** The Cookie header this browser would send. */
  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get prefix(): string {
    return `${this.baseUrl}/_service/${this.kind}/v1`;
  }

  async request(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h['content-type'] = 'application/json';
    if (this.kind === 'browser') {
      if (this.cookies.size) h.cookie = this.cookieHeader;
      const csrf = this.cookies.get('csrftoken');
      if (csrf && method !== 'GET' && !('x-csrftoken' in h)) h['x-csrftoken'] = csrf;
    } else if (this.sessionToken && !('x-session-token' in h)) {
      h['x-session-token'] = this.sessionToken;
    }
    const response = await fetch(`${this.prefix}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.startsWith('application/json')) {
      throw new Error(`${method} ${path}: expected JSON, got ${contentType || 'no content type'} (${response.status}): ${text.slice(0, 200)}`);
    }
    const parsed = JSON.parse(text);
    if (this.kind === 'browser') this.absorbCookies(response.headers);
    if (this.kind === 'app' && typeof parsed?.meta?.session_token === 'string') this.sessionToken = parsed.meta.session_token;
    return { status: response.status, body: parsed, headers: response.headers };
  }

  /** Keeps the cookies a response sets, as a browser would (paths are ignored: every cookie goes everywhere). */
  absorbCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', path, body, headers);
  put = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('PUT', path, body, headers);
  patch = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('PATCH', path, body, headers);
  delete = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('DELETE', path, body, headers);
}
