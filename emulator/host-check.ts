// Who may talk to the emulator. Its token is printed and often the default, so a web page the user visits
// could reach it through DNS rebinding (a name of the attacker's that resolves to 127.0.0.1) or write to it
// from its own origin. The emulator answers only Host names it knows (loopback, the address it binds to,
// and those given with --allow-host), and refuses writes that a browser says come from another site.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendText } from './http.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
/** Methods a browser may send cross-site without asking first; they change nothing here. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The Host names answered: loopback, the address bound (unless a wildcard), and the names allowed. */
export function allowedHosts(bound: string | undefined, allowed: string[] = []): Set<string> {
  const names = [...LOOPBACK_NAMES, ...allowed];
  if (bound && !['0.0.0.0', '::', '[::]'].includes(bound))
    names.push(bound.includes(':') ? `[${bound}]` : bound);
  return new Set(names.map(normalName));
}

/**
 * Answers 421 when the Host header names no allowed host, 403 when a browser sends a write from another
 * origin; true when it answered. A request with no Origin and no Sec-Fetch-Site (curl, the action, the
 * tests) is not a browser's cross-site write.
 */
export function refuseForeign(request: FastifyRequest, reply: FastifyReply, hosts: Set<string>): boolean {
  const host = request.headers.host ?? '';
  const name = hostName(host);
  if (!name || !hosts.has(name)) {
    sendText(
      reply,
      421,
      `Host "${printable(host)}" is not served here: the emulator answers ${[...hosts].join(', ')}; start it with --allow-host <name> to add one.`,
    );
    return true;
  }
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  const crossOrigin = origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`;
  const crossSite = typeof site === 'string' && site !== 'same-origin' && site !== 'none';
  if (crossOrigin || crossSite) {
    const from = origin ? `origin "${printable(origin)}"` : `a ${printable(String(site))} site`;
    sendText(
      reply,
      403,
      `Refused: a ${request.method} from ${from}; the emulator takes writes only from its own page and from clients that are not browsers.`,
    );
    return true;
  }
  return false;
}

/** The name of a Host header without its port, lower case, `[::1]` kept in brackets. */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match ? normalName(match[1]!) : undefined;
}

function normalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

/** A header value in a one-line answer: short, and no control characters. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const shown = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return shown.length > 100 ? `${shown.slice(0, 99)}…` : shown;
}
