/* global document, location, sessionStorage, URLSearchParams, EventSource, alert, crypto */
// The emulator's page: one snapshot of the state per server-sent event, rendered as plain HTML. No
// framework: a snapshot is small and comes whole, so re-rendering it is all the job needs.
const esc = (value) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
const $ = (id) => document.getElementById(id);

const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
if (fromHash) sessionStorage.setItem('emulator-token', fromHash);
let token = sessionStorage.getItem('emulator-token');

async function call(method, path, body) {
  const answer = await fetch(path, {
    method,
    headers: { 'x-api-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!answer.ok) alert(`${path}: ${answer.status} ${await answer.text()}`);
}

const state = (value) => `<span class="state ${esc(value)}">${esc(value)}</span>`;

function pullRequestRow(queue, pr) {
  const history = (queue.history[pr.prNumber] ?? [])
    .map(
      (e) =>
        `<li>${esc(e.at.slice(11, 19))} ${esc(e.from ?? 'submitted')} → ${esc(e.to)} ${e.reason ? `(${esc(e.reason)})` : ''}</li>`,
    )
    .join('');
  const run = pr.runId ? queue.runs.find((r) => r.id === pr.runId) : undefined;
  const live = ['not_ready', 'pending', 'testing', 'tests_passed', 'pending_failure'].includes(pr.state);
  return `<tr data-pr="${pr.prNumber}">
    <td>#${pr.prNumber}</td>
    <td>${esc(pr.title)}<div class="muted">${esc(pr.author)} · ${esc(pr.sha.slice(0, 10))}</div></td>
    <td>${state(pr.state)} <span class="reason">${esc(pr.reason ?? '')}</span>
      ${history ? `<details><summary class="muted">history</summary><ol>${history}</ol></details>` : ''}</td>
    <td>${esc(pr.priorityName)}</td>
    <td>${run ? `${run.prNumbers.length > 1 ? 'batch ' : ''}${run.prNumbers.map((n) => `#${n}`).join(', ')}${run.kind === 'bisection' ? ' (bisection)' : ''}` : ''}</td>
    <td>${live ? `<button data-push="${pr.prNumber}">Push new sha</button>` : ''}</td>
  </tr>`;
}

function queueSection(queue) {
  const runs = queue.runs
    .filter((r) => r.status === 'in_progress')
    .map(
      (
        r,
      ) => `<div class="run" data-run="${esc(r.id)}">${esc(r.kind)} run ${esc(r.id.slice(0, 8))} testing ${r.prNumbers.map((n) => `#${n}`).join(', ')}
      ${r.dependentPrs.length ? `<span class="muted">on top of ${r.dependentPrs.map((n) => `#${n}`).join(', ')}</span>` : ''}
      <button data-finish="${esc(r.id)}" data-outcome="pass">Pass</button> <button data-finish="${esc(r.id)}" data-outcome="fail">Fail</button></div>`,
    )
    .join('');
  const rows = [...queue.line, ...queue.others].map((pr) => pullRequestRow(queue, pr)).join('');
  return `<section class="queue" data-queue="${esc(queue.key)}">
    <h2>${esc(queue.repo)} → ${esc(queue.branch)} ${state(queue.state)}
      <span class="muted">${esc(queue.mode)}, ${queue.concurrency} at a time${queue.batch ? ', batching' : ''}</span>
      <button data-queue-state="paused">Pause</button><button data-queue-state="draining">Drain</button><button data-queue-state="running">Resume</button></h2>
    ${runs || '<div class="muted">No run in progress.</div>'}
    <table><thead><tr><th>PR</th><th>Title</th><th>State</th><th>Priority</th><th>Run</th><th></th></tr></thead>
    <tbody>${rows || '<tr><td colspan="6" class="muted">No pull requests.</td></tr>'}</tbody></table>
  </section>`;
}

function flakySection(flaky) {
  if (flaky.length === 0) return '';
  return `<div><h2>Flaky tests</h2>${flaky
    .map(
      (
        repo,
      ) => `<h3>${esc(repo.repo)} <span class="muted">${repo.counts.flaky} flaky, ${repo.counts.broken} broken, ${repo.counts.quarantined} quarantined, ${repo.ciRuns} CI runs recorded</span></h3>
      <table><tbody>${repo.tests.map((t) => `<tr><td>${state(t.status)}</td><td>${esc(t.name)}</td><td>${t.quarantined ? 'quarantined' : ''}</td></tr>`).join('')}</tbody></table>`,
    )
    .join('')}</div>`;
}

let current;
function render(snapshot) {
  current = snapshot;
  $('clock').textContent = `Virtual time ${snapshot.now.replace('T', ' ').slice(0, 19)} UTC`;
  $('pause').textContent = snapshot.paused ? 'Resume time' : 'Pause time';
  $('pause').hidden = !snapshot.timeScale;
  $('queues').innerHTML =
    snapshot.queues.map(queueSection).join('') ||
    '<p class="muted">No queue yet: create one with createQueue.</p>';
  $('flaky').innerHTML = flakySection(snapshot.flaky);
}

document.addEventListener('click', (event) => {
  const button = event.target.closest('button');
  if (!button || !current) return;
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
});

function connect() {
  const events = new EventSource(`/_emulator/events?token=${encodeURIComponent(token)}`);
  events.addEventListener('state', (event) => render(JSON.parse(event.data)));
  events.onopen = () => ($('connection').textContent = 'live');
  events.onerror = () => ($('connection').textContent = 'reconnecting…');
}

if (token) connect();
else {
  $('login').hidden = false;
  $('login').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('token-input').value.trim();
    sessionStorage.setItem('emulator-token', token);
    $('login').hidden = true;
    connect();
  });
}
