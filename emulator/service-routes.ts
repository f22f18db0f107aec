// The endpoints anyone may call without an organization token: `GET /status` (the emulator is up: every
// component green) and the device login (see device-auth.ts), with its verification page at /device.
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type RequestOf, type ServiceStatus } from '../src/wire/index.js';
import { DEVICE_PAGE_PATH, type DeviceLogins } from './device-auth.js';
import { QueueModelError } from '../src/queue-model/index.js';
import { API_PREFIX } from './http.js';
import { answerWriter } from './serializers.js';
import { Type, type Static } from '@sinclair/typebox';

const COMPONENTS = ['Merge Queue', 'Flaky Tests', 'API'];
const JSON_TYPE = 'application/json';

const STATUS: ServiceStatus = {
  overallStatus: { type: 'up', color: 'green', overallStatusDescription: 'All systems operational' },
  statuses: COMPONENTS.map((name) => ({ name, color: 'green', statusDescription: 'Operational' })),
};

const Decision = Type.Object({
  userCode: Type.String({ minLength: 1, maxLength: 64 }),
  approve: Type.Boolean(),
});

/** Serves the status and the device login, and the login's page; returns the endpoints it serves. */
export function registerServiceRoutes(app: FastifyInstance, logins: DeviceLogins) {
  const status = ENDPOINTS.getStatus;
  const writeStatus = answerWriter('getStatus');
  app.get(`${API_PREFIX}${status.path}`, (request, reply) => {
    reply.type(JSON_TYPE).send(writeStatus(STATUS, request));
  });

  const initiate = ENDPOINTS.deviceAuthInitiate;
  const writeInitiate = answerWriter('deviceAuthInitiate');
  app.post(`${API_PREFIX}${initiate.path}`, { schema: { body: initiate.request } }, (request, reply) => {
    const answer = logins.initiate(`${request.protocol}://${request.host}`);
    reply.type(JSON_TYPE).send(writeInitiate(answer, request));
  });

  const tokens = ENDPOINTS.deviceAuthTokens;
  const writeTokens = answerWriter('deviceAuthTokens');
  app.post(`${API_PREFIX}${tokens.path}`, { schema: { body: tokens.request } }, (request, reply) => {
    const { deviceCode } = request.body as RequestOf<'deviceAuthTokens'>;
    const answer = logins.poll(deviceCode);
    if (!answer)
      throw new QueueModelError(400, 'deviceCode is not one this service issued, or was already used');
    reply.type(JSON_TYPE).send(writeTokens(answer, request));
  });

  app.get(DEVICE_PAGE_PATH, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(DEVICE_PAGE),
  );
  app.post(`${DEVICE_PAGE_PATH}/decision`, { schema: { body: Decision } }, async (request) => {
    const { userCode, approve } = request.body as Static<typeof Decision>;
    if (!logins.decide(userCode, approve)) {
      throw new QueueModelError(
        404,
        `No login waits for the code ${userCode}: it is unknown, expired or decided`,
      );
    }
    return { userCode, approved: approve };
  });
  return ['getStatus', 'deviceAuthInitiate', 'deviceAuthTokens'] as const;
}

const DEVICE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Emulator login</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}
input{font:inherit;letter-spacing:.2em;text-transform:uppercase;padding:.4rem;width:12rem}
button{font:inherit;padding:.4rem 1rem;margin:.5rem .5rem 0 0}</style></head>
<body><h1>Log in to the emulator</h1>
<p>Enter the code your terminal shows, then approve the login.</p>
<form id="f"><input id="code" name="user_code" autocomplete="off" required>
<div><button name="approve" value="true">Approve</button><button name="approve" value="false">Deny</button></div></form>
<p id="out" role="status"></p>
<script>
const code = document.getElementById('code');
code.value = new URLSearchParams(location.search).get('user_code') || '';
document.getElementById('f').addEventListener('submit', async (event) => {
  event.preventDefault();
  const approve = event.submitter && event.submitter.value === 'true';
  const answer = await fetch('${DEVICE_PAGE_PATH}/decision', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userCode: code.value, approve }),
  });
  document.getElementById('out').textContent = answer.ok
    ? (approve ? 'Approved: you can go back to your terminal.' : 'Denied.') : await answer.text();
});
</script></body></html>`;
