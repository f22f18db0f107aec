/* global document, location, history, sessionStorage, URLSearchParams, EventSource, alert, crypto */
// The emulator's page: one snapshot of the state per server-sent event, rendered as plain HTML. No
// framework: a snapshot is small and comes whole, so re-rendering it is all the job needs.
import { esc, utc } from './format.js';
import { queueSection } from './queue-view.js';

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = 'emulator-token';

const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromHash) {
  sessionStorage.setItem(TOKEN_KEY, fromHash);
  // The token has no business staying in the address bar (or in a screenshot of it).
  history.replaceState(null, '', location.pathname + location.search);
}
let token = sessionStorage.getItem(TOKEN_KEY);

async function call(method, path, body) {
  const answer = await fetch(path, {
    method,
    headers: { 'x-api-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!answer.ok) alert(`${path}: ${answer.status} ${await answer.text()}`);
}

function flakySection(flaky) {
  if (flaky.length === 0) return '';
  const repository = (repo) => {
    const counts = `${repo.counts.flaky} flaky, ${repo.counts.broken} broken, ${repo.counts.quarantined} quarantined, ${repo.ciRuns} CI runs recorded`;
    const rows = repo.tests.map(
      (t) =>
        `<tr><td><span class="state ${esc(t.status)}">${esc(t.status)}</span></td><td class="user-text">${esc(t.name)}</td><td>${t.quarantined ? 'quarantined' : ''}</td></tr>`,
    );
    return `<h3><span class="user-text">${esc(repo.repo)}</span> <span class="muted">${esc(counts)}</span></h3><table><tbody>${rows.join('')}</tbody></table>`;
  };
  return `<div><h2>Flaky tests</h2>${flaky.map(repository).join('')}</div>`;
}

let current;
function render(snapshot) {
  current = snapshot;
  $('clock-controls').hidden = false;
  $('clock').textContent = `Virtual time ${utc(snapshot.now).slice(0, 16)} UTC`;
  $('clock').title = utc(snapshot.now);
  $('pause').textContent = snapshot.paused ? 'Resume time' : 'Pause time';
  $('pause').hidden = !snapshot.timeScale;
  // The finished sections a person opened stay open across snapshots.
  const open = new Set(
    [...document.querySelectorAll('section.queue details.finished[open]')].map(
      (d) => d.closest('section').dataset.queue,
    ),
  );
  $('queues').innerHTML =
    snapshot.queues.map((queue) => queueSection(queue, snapshot.now)).join('') ||
    '<p class="muted empty">No queue yet: create one with createQueue (or POST /_emulator/queues).</p>';
  for (const section of document.querySelectorAll('section.queue')) {
    if (open.has(section.dataset.queue)) section.querySelector('details.finished')?.setAttribute('open', '');
  }
  $('flaky').innerHTML = flakySection(snapshot.flaky);
}

function act(button) {
  const section = button.closest('[data-queue]');
  const queue = section && current.queues.find((q) => q.key === section.dataset.queue);
  if (button.dataset.advance)
    call('POST', '/_emulator/clock/advance', { minutes: Number(button.dataset.advance) });
  else if (button.id === 'pause') call('POST', '/_emulator/clock/pause', { paused: !current.paused });
  else if (button.dataset.finish)
    call('POST', '/_emulator/runs/finish', { runId: button.dataset.finish, outcome: button.dataset.outcome });
  else if (queue && button.dataset.queueState)
    call('POST', '/v1/updateQueue', {
      repo: queue.repoRef,
      targetBranch: queue.branch,
      state: button.dataset.queueState,
    });
  else if (queue && button.dataset.push)
    call('POST', '/_emulator/pull-requests', {
      repo: queue.repoRef,
      number: Number(button.dataset.push),
      headSha: crypto.randomUUID().replace(/-/g, '').slice(0, 40),
    });
}

document.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  if (button && current && !button.closest('form')) act(button);
});

function connect() {
  const events = new EventSource(`/_emulator/events?token=${encodeURIComponent(token)}`);
  events.addEventListener('state', (event) => render(JSON.parse(event.data)));
  events.onopen = () => ($('connection').textContent = 'live');
  events.onerror = () => ($('connection').textContent = 'reconnecting…');
}

/** Asks for the token, saying why when the one given was refused. */
function signIn(refused) {
  $('sign-in').hidden = false;
  $('sign-in-refused').hidden = !refused;
  $('token-input').focus();
}

/** Checks the token once (an event stream cannot tell a refusal from a lost connection), then listens. */
async function start() {
  if (!token) return signIn(false);
  const answer = await fetch('/_emulator/clock', { headers: { 'x-api-token': token } });
  if (answer.status === 401) return signIn(true);
  $('sign-in').hidden = true;
  connect();
}

$('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('token-input').value.trim();
  sessionStorage.setItem(TOKEN_KEY, token);
  start();
});
start();
