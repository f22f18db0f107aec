// Pages that show, close to how their hosts draw them, the outputs that are not a job summary: a step's
// annotations and log (from the workflow commands it wrote), and a Slack Block Kit message with the line
// a phone's notification shows. For `npm run screenshots`; approximations around the real output.

interface Annotation {
  level: string;
  title: string;
  message: string;
  file?: string;
}

/** The annotations (::error title=...::message) and plain lines of a step's log. */
export function annotationsPage(log: string, title: string): string {
  const annotations: Annotation[] = [];
  const lines: { level: string; text: string }[] = [];
  for (const line of log.split('\n')) {
    const command = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (command) {
      const properties = Object.fromEntries(
        (command[2] ?? '')
          .split(',')
          .map((pair) => pair.split('=').map(unescapeProperty) as [string, string]),
      );
      const message = unescapeData(command[3]!);
      annotations.push({ level: command[1]!, title: properties.title ?? '', message, file: properties.file });
      lines.push({
        level: command[1]!,
        text: `${command[1]![0]!.toUpperCase()}${command[1]!.slice(1)}: ${message}`,
      });
    } else if (line && !line.startsWith('::')) lines.push({ level: 'info', text: line });
  }
  const items = annotations
    .map(
      (a) =>
        `<li class="${a.level}"><b>${escapeHtml(a.title)}</b>${a.file ? `<div class="file">${escapeHtml(a.file)}</div>` : ''}<pre>${escapeHtml(a.message)}</pre></li>`,
    )
    .join('');
  const logLines = lines.map((l) => `<div class="line ${l.level}">${escapeHtml(l.text)}</div>`).join('');
  return page(
    title,
    `<h3>Annotations</h3><ul class="annotations">${items}</ul><h3>Log</h3><div class="log">${logLines}</div>`,
  );
}

interface SlackBlock {
  type: string;
  text?: { text: string };
  elements?: { type: string; text: string | { text: string }; url?: string }[];
}

/**
 * A Slack message as Block Kit lays it out (in its attachment, with the attachment's colour bar), and the
 * `text` fallback a phone's notification shows.
 */
export function slackPage(payload: {
  text: string;
  attachments: { color: string; blocks: SlackBlock[] }[];
}): string {
  const [attachment] = payload.attachments;
  const blocks = (attachment?.blocks ?? [])
    .map((block) => {
      if (block.type === 'header') return `<h3>${escapeHtml(block.text?.text ?? '')}</h3>`;
      if (block.type === 'section') return `<p>${mrkdwn(block.text?.text ?? '')}</p>`;
      if (block.type === 'actions') {
        const buttons = (block.elements ?? []).map(
          (b) => `<a class="button" href="${escapeHtml(b.url ?? '')}">${escapeHtml(textOf(b.text))}</a>`,
        );
        return `<p>${buttons.join(' ')}</p>`;
      }
      const context = (block.elements ?? []).map((e) => mrkdwn(textOf(e.text))).join(' ');
      return `<p class="context">${context}</p>`;
    })
    .join('');
  return page(
    'Slack message and phone notification',
    `<div class="slack" style="border-left-color: ${escapeHtml(attachment?.color ?? '#4a154b')}">${blocks}</div><h3>Phone notification (the text fallback)</h3><div class="phone">${mrkdwn(payload.text)}</div>`,
  );
}

function textOf(text: string | { text: string }): string {
  return typeof text === 'string' ? text : text.text;
}

/** Slack's mrkdwn as HTML: `<url|label>` links, *bold*, `code`, line breaks. */
function mrkdwn(text: string): string {
  return text
    .replace(/<(https:[^|>]+)\|([^>]*)>/g, (_, url: string, label: string) => `<a href="${url}">${label}</a>`)
    .replace(/\*([^*\n]+)\*/g, '<b>$1</b>')
    .replace(/`([^`\n]+)`/g, '<code>$1</code>')
    .replace(/\n/g, '<br>');
}

function unescapeData(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

function unescapeProperty(text: string): string {
  return unescapeData(text).replace(/%3A/g, ':').replace(/%2C/g, ',');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><div class="box"><div class="box-title">${escapeHtml(title)}</div><div class="content">${body}</div></div></body></html>`;
}

const STYLE = `
body { margin: 0; padding: 24px; background: #f6f8fa; font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; }
.box { max-width: 1040px; background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; }
.box-title { padding: 12px 16px; font-weight: 600; border-bottom: 1px solid #d1d9e0; }
.content { padding: 16px 32px; }
.annotations { list-style: none; padding: 0; }
.annotations li { border-bottom: 1px solid #d1d9e0; padding: 8px 0 8px 24px; position: relative; }
.annotations li::before { position: absolute; left: 0; }
.annotations li.error::before { content: "⊗"; color: #cf222e; }
.annotations li.warning::before { content: "⚠"; color: #9a6700; }
.annotations li.notice::before { content: "ⓘ"; color: #0969da; }
.annotations pre { margin: 4px 0 0; white-space: pre-wrap; font-size: 12px; }
.file { color: #0969da; font-size: 12px; }
.log { background: #0d1117; color: #e6edf3; font: 12px/1.6 monospace; padding: 8px 16px; border-radius: 6px; }
.line.error { color: #ff7b72; } .line.warning { color: #d29922; }
.slack { border-left: 4px solid #4a154b; padding-left: 12px; }
.button { display: inline-block; border: 1px solid #d1d9e0; border-radius: 4px; padding: 4px 12px; color: #1f2328; text-decoration: none; font-weight: 600; }
.context { color: #59636e; font-size: 12px; }
.phone { max-width: 360px; background: #f0f0f0; border-radius: 12px; padding: 10px 14px; }
a { color: #0969da; }
code { background: #eff1f3; padding: .1em .3em; border-radius: 4px; }
`;
