// Renders a job summary as GitHub renders it: GFM (marked, with GitHub's alerts and <details>), then every
// ```mermaid block drawn by the mermaid package in Debian's headless Chromium (playwright-core). Answers
// what a reader would see wrong (a table that did not parse, an empty header row, a chart that failed)
// and, when asked, a screenshot. Test-only: nothing here reaches dist/.
import { readFileSync } from 'node:fs';
import { missingGlyphs } from './glyphs.js';
import { createRequire } from 'node:module';
import { Marked, type Token, type Tokens } from 'marked';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';

const require = createRequire(import.meta.url);

/** Problems a reader would see in the markdown itself, before any chart is drawn. */
export function markdownProblems(markdown: string): string[] {
  const problems: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'table') {
        const table = token as Tokens.Table;
        if (table.header.every((cell) => cell.text.trim() === ''))
          problems.push('a table with an empty header row');
        for (const row of table.rows) {
          if (row.length !== table.header.length)
            problems.push('a table row with a different number of cells');
        }
      }
      if (token.type === 'paragraph' && /^\s*\|.*\|\s*$/m.test((token as Tokens.Paragraph).raw)) {
        problems.push(
          `a table that did not parse: ${(token as Tokens.Paragraph).raw.split('\n')[0]!.slice(0, 80)}`,
        );
      }
      const children = (token as { tokens?: Token[] }).tokens;
      if (children) walk(children);
    }
  };
  walk(new Marked({ gfm: true }).lexer(markdown));
  return problems;
}

/** The summary as HTML (GitHub-like styles); mermaid blocks left as `<pre class="mermaid">` to be drawn. */
export function summaryHtml(markdown: string, title = 'job summary'): string {
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      code({ text, lang }) {
        if (lang === 'mermaid') return `<pre class="mermaid">${escapeHtml(text)}</pre>\n`;
        return false;
      },
    },
  });
  const body = githubAlerts(marked.parse(markdown, { async: false }));
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><div class="box"><div class="box-title">${escapeHtml(title)}</div>
<div class="markdown-body">${body}</div></div></body></html>`;
}

export interface RenderedSummary {
  problems: string[];
  /** One entry per mermaid block: the error mermaid gave, or '' when it drew the chart. */
  charts: string[];
  /**
   * What keeps a person from reading the drawn page at a glance: a literal `\n`, a raw ISO timestamp or
   * "unknown" in a table cell, chart labels drawn over each other.
   */
  reading: string[];
  /** Each chart's bars as drawn: their colour and width in pixels, and the widest a bar can be. */
  bars: DrawnBars[];
  /** Every timeline (gantt) bar as drawn: its label, its fill and its label's colour. */
  timeline: TimelineBar[];
}

export interface TimelineBar {
  label: string;
  fill: string;
  textFill: string;
}

export interface DrawnBars {
  rects: { fill: string; width: number }[];
  /** The width of the whole chart, labels and all. */
  chartWidth: number;
  /** Every text of the chart (title, labels, axis), in order. */
  texts: string[];
}

/** Draws the summary in Chromium: every problem, and whether each chart rendered; a PNG when `pngPath`. */
export async function renderSummary(
  markdown: string,
  options: { pngPath?: string; title?: string; browser?: Browser } = {},
): Promise<RenderedSummary> {
  const browser = options.browser ?? (await launchChromium());
  try {
    const renderer = await SummaryRenderer.open(browser);
    const rendered = await renderer.render(markdown, options);
    await renderer.close();
    return rendered;
  } finally {
    if (!options.browser) await browser.close();
  }
}

/** One page with mermaid loaded once, for drawing many summaries in a row. */
export class SummaryRenderer {
  private constructor(private readonly page: Page) {}

  static async open(browser: Browser): Promise<SummaryRenderer> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    await page.setContent(summaryHtml(''), { waitUntil: 'load' });
    await page.addScriptTag({
      content: readFileSync(require.resolve('mermaid/dist/mermaid.min.js'), 'utf8'),
    });
    return new SummaryRenderer(page);
  }

  async render(
    markdown: string,
    options: { pngPath?: string; title?: string } = {},
  ): Promise<RenderedSummary> {
    const html = summaryHtml(markdown, options.title);
    const charts = await this.page.evaluate(async (pageHtml: string) => {
      const { mermaid, document } = globalThis as unknown as { mermaid: MermaidApi; document: PageDocument };
      const parsed = new (
        globalThis as unknown as {
          DOMParser: new () => {
            parseFromString(html: string, type: string): PageDocument & { body: PageElement };
          };
        }
      ).DOMParser().parseFromString(pageHtml, 'text/html');
      document.body.innerHTML = parsed.body.innerHTML;
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default' });
      const blocks = [...document.querySelectorAll('pre.mermaid')];
      const errors: string[] = [];
      for (const [index, block] of blocks.entries()) {
        try {
          const { svg } = await mermaid.render(`chart${index}`, block.textContent ?? '');
          if (/aria-roledescription="error"/.test(svg)) throw new Error('mermaid drew its error picture');
          const figure = document.createElement('div');
          figure.className = 'mermaid-figure';
          figure.innerHTML = svg;
          block.replaceWith(figure);
          errors.push('');
        } catch (error) {
          errors.push(error instanceof Error ? error.message : String(error));
        }
      }
      return errors;
    }, html);
    const reading = [...(await this.page.evaluate(readingProblems)), ...(await glyphProblems(this.page))];
    const bars = await this.page.evaluate(drawnBars);
    const timeline = await this.page.evaluate(timelineBars);
    if (options.pngPath) await this.page.locator('.box').screenshot({ path: options.pngPath });
    return { problems: markdownProblems(markdown), charts, reading, bars, timeline };
  }

  /** A page of its own (annotations, a Slack message): what a reader stumbles on, and a PNG when asked. */
  async renderPage(html: string, pngPath?: string): Promise<string[]> {
    const page = await this.page.context().browser()!.newPage();
    try {
      await page.setContent(html, { waitUntil: 'load' });
      const reading = [...(await page.evaluate(readingProblems)), ...(await glyphProblems(page))];
      if (pngPath) await page.locator('.box').screenshot({ path: pngPath });
      return reading;
    } finally {
      await page.close();
    }
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

/** Characters of the drawn page (its charts' labels too) that would be drawn as a box. */
export async function glyphProblems(page: Page): Promise<string[]> {
  const text = await page.evaluate(
    () =>
      (globalThis as unknown as { document: { body: { textContent: string | null } } }).document.body
        .textContent ?? '',
  );
  return missingGlyphs(text);
}

/** Runs in the page: what a reader would stumble on in the drawn summary (or any page of ours). */
export function readingProblems(): string[] {
  const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
  const problems: string[] = [];
  const text = document.body.textContent ?? '';
  const escaped = /.{0,30}\\[nr].{0,30}/.exec(text);
  if (escaped) problems.push(`a literal line break escape: ${escaped[0]}`);
  for (const cell of document.querySelectorAll('td')) {
    const value = (cell.textContent ?? '').trim();
    if (/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value))
      problems.push(`an ISO timestamp in a table cell: ${value}`);
    if (/^unknown$/i.test(value)) problems.push('a table cell that says "unknown"');
  }
  // What a reader copies must be what they read: no invisible character, no markdown escape left over.
  const copied = /.{0,20}(?:[\u200b-\u200d\u2060\ufeff]|\\[\\#*_[\]~@`]).{0,20}/u.exec(text);
  if (copied)
    problems.push(`an invisible character or a markdown escape in the text: ${JSON.stringify(copied[0])}`);
  for (const label of document.querySelectorAll('.mermaid-figure svg text.taskText')) {
    const bar = label.id ? document.getElementById(label.id.replace(/-text$/, '')) : null;
    if (!bar || /taskTextOutside/.test(label.getAttribute('class') ?? '')) continue;
    // WCAG's contrast ratio of the label's colour and its bar's (anonymous arrows only: this runs in the
    // page, where a named helper of this module is not, and a bundler's name-keeping would break it).
    const [light, dark] = [getComputedStyle(label).fill, getComputedStyle(bar).fill]
      .map((colour) =>
        (colour.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0'])
          .slice(0, 3)
          .map((part) => Number(part) / 255)
          .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
          .reduce((sum, c, i) => sum + [0.2126, 0.7152, 0.0722][i]! * c, 0),
      )
      .sort((x, y) => y - x);
    const contrast = (light! + 0.05) / (dark! + 0.05);
    if (contrast < 4.5)
      problems.push(
        `a timeline label hard to read on its bar (contrast ${contrast.toFixed(1)}): ${label.textContent}`,
      );
  }
  [...document.querySelectorAll('.mermaid-figure svg')].forEach((svg, chart) => {
    const labels = [...svg.querySelectorAll('text')]
      .map((label) => ({ text: (label.textContent ?? '').trim(), box: label.getBoundingClientRect() }))
      .filter((label) => label.text && label.box.width > 0 && label.box.height > 0);
    for (const [index, a] of labels.entries()) {
      for (const b of labels.slice(index + 1)) {
        const across = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const down = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (across > 1 && down > 1)
          problems.push(`chart ${chart + 1}: labels "${a.text}" and "${b.text}" overlap`);
      }
    }
  });
  return problems;
}

/** Runs in the page: each timeline bar's label, fill and label colour, as drawn. */
export function timelineBars(): TimelineBar[] {
  const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
  return [...document.querySelectorAll('.mermaid-figure svg text.taskText')].flatMap((text) => {
    const bar = text.id ? document.getElementById(text.id.replace(/-text$/, '')) : null;
    if (!bar) return [];
    const label = (text.textContent ?? '').trim();
    return [{ label, fill: getComputedStyle(bar).fill, textFill: getComputedStyle(text).fill }];
  });
}

/** Runs in the page: each xychart's bar rectangles and the chart's width. */
export function drawnBars(): DrawnBars[] {
  const { document } = globalThis as unknown as { document: PageDocument };
  return [...document.querySelectorAll('.mermaid-figure svg')].map((svg) => {
    const rects = [...svg.querySelectorAll('g.plot rect')].map((rect) => ({
      fill: rect.getAttribute('fill') ?? '',
      width: Number(rect.getAttribute('width') ?? 0),
    }));
    return {
      rects,
      chartWidth: svg.getBoundingClientRect().width,
      texts: [...svg.querySelectorAll('text')].map((text) => (text.textContent ?? '').trim()),
    };
  });
}

/** The little of the page's DOM used here (the type-check runs without the DOM library). */
interface PageElement {
  id: string;
  textContent: string | null;
  className: string;
  innerHTML: string;
  replaceWith(node: PageElement): void;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  getBoundingClientRect(): {
    left: number;
    right: number;
    top: number;
    bottom: number;
    width: number;
    height: number;
  };
}
interface PageDocument {
  body: PageElement;
  getElementById(id: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  createElement(tag: string): PageElement;
}

interface PageGlobals {
  document: PageDocument;
  getComputedStyle(element: PageElement): { fill: string };
}

interface MermaidApi {
  initialize(config: Record<string, unknown>): void;
  render(id: string, text: string): Promise<{ svg: string }>;
}

/** GitHub shows `> [!CAUTION]` blockquotes as coloured alerts; so does this page. */
function githubAlerts(html: string): string {
  return html.replace(
    /<blockquote>\s*<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*(?:<br>)?\s*/g,
    (_, kind: string) =>
      `<blockquote class="alert alert-${kind.toLowerCase()}"><p class="alert-title">${kind[0]}${kind.slice(1).toLowerCase()}</p><p>`,
  );
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const STYLE = `
body { margin: 0; padding: 24px; background: #f6f8fa; font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; }
.box { max-width: 1040px; background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; }
.box-title { padding: 12px 16px; font-weight: 600; border-bottom: 1px solid #d1d9e0; }
.markdown-body { padding: 16px 32px; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
h3 { font-size: 1.25em; }
table { border-collapse: collapse; margin: 12px 0; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; }
th { font-weight: 600; }
tr:nth-child(2n) { background: #f6f8fa; }
code { background: #eff1f3; padding: .2em .4em; border-radius: 6px; font-size: 85%; }
a { color: #0969da; text-decoration: none; }
blockquote { margin: 0; padding: 0 1em; border-left: .25em solid #d1d9e0; color: #59636e; }
.alert { color: #1f2328; }
.alert-title { font-weight: 500; }
.alert-caution { border-left-color: #cf222e; } .alert-caution .alert-title { color: #d1242f; }
.alert-warning { border-left-color: #9a6700; } .alert-warning .alert-title { color: #9a6700; }
.alert-note { border-left-color: #0969da; } .alert-note .alert-title { color: #0969da; }
details summary { cursor: pointer; }
.mermaid-figure { margin: 16px 0; }
`;
