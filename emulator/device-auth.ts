// The device login, played locally: `initiate` hands out a device code and a user code; the person opens
// the verification page (served by the emulator at /device) and approves or denies; `tokens`, polled
// meanwhile, answers pending, slow_down (polled sooner than the interval), denied, expired, or success
// with a sealed session that the emulator then accepts as a token (x-api-token or Authorization: Bearer).
// Real time, not the virtual clock: it is a person's login, not part of the queue's day.
import type { DeviceAuthInitiateResponse, DeviceAuthTokensResponse } from '../src/wire/index.js';
import { SeededRandom } from '../src/queue-model/index.js';

export const DEVICE_PAGE_PATH = '/device';
const USER_CODE_LETTERS = 'BCDFGHJKLMNPQRSTVWXZ';
/** The polling interval grows by this much at each slow_down, as in OAuth's device flow. */
const SLOW_DOWN_STEP_SECONDS = 5;
/** Logins waiting for a decision at once; the oldest is dropped past this. */
const MAX_PENDING = 1_000;

export interface DeviceAuthOptions {
  expiresInSeconds?: number;
  intervalSeconds?: number;
  now?: () => number;
  seed?: number;
}

interface Login {
  deviceCode: string;
  userCode: string;
  expiresAt: number;
  intervalSeconds: number;
  lastPolledAt: number | undefined;
  decision: 'pending' | 'approved' | 'denied';
  used: boolean;
}

export class DeviceLogins {
  private readonly byDeviceCode = new Map<string, Login>();
  private readonly byUserCode = new Map<string, Login>();
  private readonly sessions = new Set<string>();
  private readonly random: SeededRandom;
  private readonly now: () => number;
  private readonly expiresInSeconds: number;
  private readonly intervalSeconds: number;

  constructor(options: DeviceAuthOptions = {}) {
    this.random = new SeededRandom((options.seed ?? 1) ^ 0x2c1b3c6d);
    this.now = options.now ?? Date.now;
    this.expiresInSeconds = options.expiresInSeconds ?? 600;
    this.intervalSeconds = options.intervalSeconds ?? 5;
  }

  initiate(origin: string): DeviceAuthInitiateResponse {
    if (this.byDeviceCode.size >= MAX_PENDING) this.forget(this.byDeviceCode.values().next().value!);
    const letters = Array.from(
      { length: 8 },
      () => USER_CODE_LETTERS[this.random.int(USER_CODE_LETTERS.length)],
    );
    const login: Login = {
      deviceCode: this.random.hex(40),
      userCode: `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`,
      expiresAt: this.now() + this.expiresInSeconds * 1000,
      intervalSeconds: this.intervalSeconds,
      lastPolledAt: undefined,
      decision: 'pending',
      used: false,
    };
    this.byDeviceCode.set(login.deviceCode, login);
    this.byUserCode.set(login.userCode, login);
    const page = `${origin}${DEVICE_PAGE_PATH}`;
    return {
      deviceCode: login.deviceCode,
      userCode: login.userCode,
      verificationUri: page,
      verificationUriComplete: `${page}?user_code=${encodeURIComponent(login.userCode)}`,
      expiresIn: this.expiresInSeconds,
      interval: this.intervalSeconds,
    };
  }

  /** One poll. Undefined for a device code never issued, or already exchanged for its session. */
  poll(deviceCode: string): DeviceAuthTokensResponse | undefined {
    const login = this.byDeviceCode.get(deviceCode);
    if (!login || login.used) return undefined;
    const now = this.now();
    if (now >= login.expiresAt) return { status: 'expired' };
    const tooSoon =
      login.lastPolledAt !== undefined && now - login.lastPolledAt < login.intervalSeconds * 1000;
    login.lastPolledAt = now;
    if (login.decision === 'denied') return { status: 'denied' };
    if (login.decision === 'approved') {
      login.used = true;
      const sealedSession = `sealed_${this.random.hex(48)}`;
      this.sessions.add(sealedSession);
      this.forget(login);
      return { status: 'success', sealedSession };
    }
    if (tooSoon) {
      login.intervalSeconds += SLOW_DOWN_STEP_SECONDS;
      return { status: 'slow_down', interval: login.intervalSeconds };
    }
    return { status: 'pending' };
  }

  /** The person's answer on the verification page; false when the code is unknown, decided or expired. */
  decide(userCode: string, approve: boolean): boolean {
    const login = this.byUserCode.get(userCode.trim().toUpperCase());
    if (!login || login.decision !== 'pending' || this.now() >= login.expiresAt) return false;
    login.decision = approve ? 'approved' : 'denied';
    return true;
  }

  accepts(token: string): boolean {
    return this.sessions.has(token);
  }

  private forget(login: Login): void {
    this.byUserCode.delete(login.userCode);
    if (!login.used) this.byDeviceCode.delete(login.deviceCode);
  }
}
