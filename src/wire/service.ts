// The rows and schemas of the service-wide endpoints that need no organization token: `GET /status` and
// the device login (`/device-auth/initiate`, then `/device-auth/tokens` polled until the user decides).
import { Type, type Static } from '@sinclair/typebox';
import { exactEnum } from './common.js';
import { DEVICE_AUTH_STATUSES, STATUS_COLORS } from './enums.js';
import type { EndpointRows } from './endpoint-row.js';

const ComponentStatus = Type.Object({
  name: Type.String(),
  color: exactEnum(STATUS_COLORS),
  statusDescription: Type.String(),
});

export const ServiceStatus = Type.Object({
  overallStatus: Type.Union([
    Type.Object({
      type: Type.Literal('up'),
      color: exactEnum(['green']),
      overallStatusDescription: Type.Literal('All systems operational'),
    }),
    Type.Object({
      type: Type.Literal('impacted'),
      color: exactEnum(['yellow', 'red']),
      overallStatusDescription: Type.Literal('Impacted'),
      impactedStatuses: Type.Array(
        Type.Object({
          name: Type.String(),
          color: exactEnum(['yellow', 'red']),
          statusDescription: Type.String(),
        }),
      ),
    }),
  ]),
  statuses: Type.Array(ComponentStatus),
});
export type ServiceStatus = Static<typeof ServiceStatus>;

export const StatusQuery = Type.Object({});

export const DeviceAuthInitiateRequest = Type.Object({});
export const DeviceAuthInitiateResponse = Type.Object({
  deviceCode: Type.String(),
  userCode: Type.String(),
  verificationUri: Type.String(),
  verificationUriComplete: Type.String(),
  expiresIn: Type.Number({ exclusiveMinimum: 0 }),
  interval: Type.Number({ exclusiveMinimum: 0 }),
});
export type DeviceAuthInitiateResponse = Static<typeof DeviceAuthInitiateResponse>;

export const DeviceAuthTokensRequest = Type.Object({ deviceCode: Type.String({ minLength: 1 }) });
export const DeviceAuthTokensResponse = Type.Object({
  status: exactEnum(DEVICE_AUTH_STATUSES),
  /** On success: the session that authenticates later requests. */
  sealedSession: Type.Optional(Type.String()),
  /** On slow_down: the polling interval to use from now on, in seconds. */
  interval: Type.Optional(Type.Number()),
});
export type DeviceAuthTokensResponse = Static<typeof DeviceAuthTokensResponse>;

/** Each service-wide endpoint's row: its route and its request and answer schemas (endpoint-row.ts). */
export const SERVICE_ENDPOINTS = {
  getStatus: {
    method: 'GET',
    path: '/status',
    answer: 'write',
    v2: 'v1-only',
    authenticated: false,
    request: StatusQuery,
    response: ServiceStatus,
  },
  deviceAuthInitiate: {
    method: 'POST',
    path: '/device-auth/initiate',
    answer: 'write',
    v2: 'v1-only',
    authenticated: false,
    repeatable: false,
    request: DeviceAuthInitiateRequest,
    response: DeviceAuthInitiateResponse,
  },
  deviceAuthTokens: {
    method: 'POST',
    path: '/device-auth/tokens',
    answer: 'write',
    v2: 'v1-only',
    authenticated: false,
    request: DeviceAuthTokensRequest,
    response: DeviceAuthTokensResponse,
  },
} as const satisfies EndpointRows;
