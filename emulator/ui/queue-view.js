// One queue as HTML: its title (host/owner/name → branch), its runs with their Pass and Fail buttons,
// the line in order, the PRs waiting to enter it, and the finished ones in a collapsed section.
import { esc, prList, since, utc, worded } from './format.js';

const knowsAbout = (pr) => Boolean(pr.title || pr.author || pr.sha);

function runLink(run) {
  const title = `run ${run.id}, test branch ${run.branch}`;
  return `<a class="run-name" href="${esc(run.url)}" title="${esc(title)}" target="_blank" rel="noopener">${esc(run.name)}</a>`;
}

function runLine(run) {
  const what = `${run.kind === 'bisection' ? 'Bisection run' : 'Run'} ${runLink(run)}`;
  const onTop = run.dependentPrs.length
    ? ` <span class="muted">on top of ${prList(run.dependentPrs)}</span>`
    : '';
  return `<li class="run" data-run="${esc(run.id)}">${what} testing ${prList(run.prNumbers)}${onTop}
    <button data-finish="${esc(run.id)}" data-outcome="pass">Pass</button>
    <button data-finish="${esc(run.id)}" data-outcome="fail">Fail</button></li>`;
}

function titleCell(pr) {
  const author = pr.author ? `by <span class="user-text">${esc(pr.author)}</span>` : '';
  const by = [author, pr.sha ? esc(pr.sha.slice(0, 10)) : ''].filter(Boolean).join(' · ');
  const title = pr.title ? `<div class="user-text">${esc(pr.title)}</div>` : '';
  return `<td class="title">${title}${by ? `<div class="muted">${by}</div>` : ''}</td>`;
}

function historyList(history) {
  if (history.length === 0) return '';
  const items = history.map((entry) => {
    const from = entry.from ? `${worded(entry.from, 'word')} → ` : 'submitted → ';
    const why = entry.reason ? `: ${worded(entry.reason, 'word')}` : '';
    return `<li><time datetime="${esc(entry.at)}">${esc(utc(entry.at).slice(11))}</time> ${from}${worded(entry.to, 'word')}${why}</li>`;
  });
  return `<details class="history"><summary class="muted">history</summary><ol>${items.join('')}</ol></details>`;
}

function runCell(pr) {
  if (!pr.run) return '<td></td>';
  const batch =
    pr.run.prNumbers.length > 1 ? ` <span class="muted">batch of ${pr.run.prNumbers.length}</span>` : '';
  return `<td>${runLink(pr.run)}${batch}</td>`;
}

const prLink = (pr) =>
  `<td><a href="${esc(pr.url)}" target="_blank" rel="noopener">#${esc(pr.prNumber)}</a></td>`;

/** The table's columns: which tables have each (`when`), its head and its cell. */
const COLUMNS = [
  { when: (t) => t.place, head: 'Place', cell: (pr) => `<td class="place">${esc(pr.place)}</td>` },
  { when: () => true, head: 'PR', cell: prLink },
  { when: (t) => t.title, head: 'Title', cell: titleCell },
  {
    when: () => true,
    head: 'State',
    cell: (pr, t) =>
      `<td class="state-cell">${worded(pr.state, 'state')} <span class="muted">${t.finished ? '' : 'for '}${since(pr.since, t.now, t.finished ? ' ago' : '')}</span></td>`,
  },
  {
    when: () => true,
    head: 'Why',
    cell: (pr) => `<td>${worded(pr.reason, 'reason')}${historyList(pr.history)}</td>`,
  },
  { when: (t) => !t.finished, head: 'Priority', cell: (pr) => `<td>${esc(pr.priorityName)}</td>` },
  { when: () => true, head: 'Run', cell: runCell },
  {
    when: (t) => !t.finished,
    head: '',
    cell: (pr) => `<td><button data-push="${esc(pr.prNumber)}">Push new sha</button></td>`,
  },
];

function prTable(prs, now, options) {
  const table = { ...options, now, title: prs.some(knowsAbout) };
  const columns = COLUMNS.filter((column) => column.when(table));
  const head = columns.map((column) => `<th>${column.head}</th>`).join('');
  const rows = prs.map(
    (pr) =>
      `<tr data-pr="${esc(pr.prNumber)}">${columns.map((column) => column.cell(pr, table)).join('')}</tr>`,
  );
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function lineSection(queue, now) {
  const line = queue.line.length
    ? prTable(queue.line, now, { place: true })
    : '<p class="muted empty">The line is empty: submit a PR (submitPullRequest) and it appears here.</p>';
  const waiting = queue.waiting.length
    ? `<h3>Waiting to enter the line (${queue.waiting.length})</h3>${prTable(queue.waiting, now, {})}`
    : '';
  return `<h3>In line (${queue.line.length})</h3>${line}${waiting}`;
}

function finishedSection(queue, now) {
  const counts = queue.finishedCounts;
  const total = counts.merged + counts.failed + counts.cancelled;
  if (total === 0) return '';
  const parts = ['merged', 'failed', 'cancelled']
    .filter((state) => counts[state] > 0)
    .map((state) => `<span class="count ${state}">${counts[state]} ${state}</span>`);
  const shown =
    queue.finished.length < total
      ? ` <span class="muted">(the last ${queue.finished.length} below)</span>`
      : '';
  return `<details class="finished"><summary>Finished: ${parts.join(', ')}${shown}</summary>
    ${prTable(queue.finished, now, { finished: true })}</details>`;
}

const STATE_BUTTONS = [
  ['paused', 'Pause'],
  ['draining', 'Drain'],
  ['running', 'Resume'],
];

/** The buttons that would change the queue's state (a code and its words): no Resume on a running queue. */
function stateButtons(state) {
  return STATE_BUTTONS.filter(([target]) => target !== state.code)
    .map(([target, label]) => `<button data-queue-state="${target}">${label}</button>`)
    .join('');
}

export function queueSection(queue, now) {
  const runs = queue.runs.filter((r) => r.status === 'in_progress');
  return `<section class="queue" data-queue="${esc(queue.key)}">
    <h2><span class="queue-title user-text">${esc(queue.title)} → ${esc(queue.branch)}</span> ${worded(queue.state, 'state')}
      <span class="muted">${esc(queue.mode)}, ${esc(queue.concurrency)} at a time${queue.batch ? ', batching' : ''}</span>
      <span class="queue-buttons">${stateButtons(queue.state)}</span></h2>
    ${runs.length ? `<ul class="runs">${runs.map(runLine).join('')}</ul>` : '<p class="muted">No run in progress.</p>'}
    ${lineSection(queue, now)}
    ${finishedSection(queue, now)}
  </section>`;
}
