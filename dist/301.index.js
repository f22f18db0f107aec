export const id = 301;
export const ids = [301];
export const modules = {

/***/ 3301:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  MAX_ANNOTATIONS_PER_LEVEL: () => (/* binding */ MAX_ANNOTATIONS_PER_LEVEL),
  checkTestResults: () => (/* binding */ checkTestResults)
});

// EXTERNAL MODULE: ./src/core/api/errors.ts
var errors = __webpack_require__(9749);
;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/outage.ts
// One short phrase for what went wrong reaching the service, for the outage warning and output.

function describeOutage(error) {
    const said = error instanceof errors/* ApiError */.hD ? error.toString() : error.message;
    const line = said.replace(/\s+/g, ' ').trim();
    return line.length > 600 ? `${line.slice(0, 600)}…` : line;
}

// EXTERNAL MODULE: ./src/core/operations/common.ts
var common = __webpack_require__(5213);
// EXTERNAL MODULE: ./src/core/operations/flaky-tests/report-file.ts
var report_file = __webpack_require__(3535);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./node_modules/ignore/index.js
var ignore = __webpack_require__(298);
var ignore_default = /*#__PURE__*/__webpack_require__.n(ignore);
;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/codeowners.ts
// The checkout's CODEOWNERS file, for the owners of the run's own failures (the service's tests carry
// their owners already). Each line is a gitignore-style pattern (matched with `ignore`, the library
// eslint uses for .gitignore rules) and its owners; the last matching line wins, as on GitHub.



const LOCATIONS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'];
const MAX_BYTES = 3 * 1024 * 1024;
async function readCodeOwners(checkoutDir) {
    for (const location of LOCATIONS) {
        const text = await (0,promises_.readFile)((0,external_node_path_.join)(checkoutDir, location), 'utf8').catch(() => undefined);
        if (text !== undefined && text.length <= MAX_BYTES)
            return parseCodeOwners(text, location);
    }
    return undefined;
}
function parseCodeOwners(text, source) {
    const rules = [];
    for (const raw of text.split(/\r?\n/)) {
        const line = raw.replace(/(^|\s)#.*$/, '').trim();
        // GitLab's [Section] headers carry no pattern.
        if (!line || line.startsWith('[') || line.startsWith('^['))
            continue;
        const [pattern, ...owners] = line.split(/\s+/);
        if (!pattern)
            continue;
        try {
            rules.push({
                matcher: ignore_default()().add(pattern),
                owners: owners.filter((owner) => !owner.startsWith('#')),
            });
        }
        catch {
            // A pattern `ignore` cannot read is skipped, as GitHub skips a line it cannot parse.
        }
    }
    return {
        source,
        ownersOf(path) {
            for (let index = rules.length - 1; index >= 0; index--) {
                const rule = rules[index];
                if (rule.matcher.ignores(path))
                    return rule.owners;
            }
            return [];
        },
    };
}

;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/locate.ts
// Where a failed test is in the checkout, for an annotation on its line: the file and line from the
// report when it gives them, else the first line of the file that names the test. Paths are made
// relative to the checkout (annotations outside it are dropped: the platform could not show them).


/** Files larger than this are not searched for a test's name. */
const MAX_SEARCHED_BYTES = 2 * 1024 * 1024;
async function locateTest(test, checkoutDir) {
    const file = inCheckout(test.file, checkoutDir);
    if (!file)
        return undefined;
    if (test.line)
        return { file, line: test.line };
    const line = await findNameInFile((0,external_node_path_.resolve)(checkoutDir, file), test.name);
    return line ? { file, line } : { file };
}
/** The path relative to the checkout, with forward slashes; undefined when outside it or not given. */
function inCheckout(path, checkoutDir) {
    if (!path)
        return undefined;
    const root = (0,external_node_path_.resolve)(checkoutDir);
    const absolute = (0,external_node_path_.isAbsolute)(path) ? path : (0,external_node_path_.resolve)(root, path);
    const relativePath = (0,external_node_path_.relative)(root, absolute);
    if (!relativePath || relativePath.startsWith('..') || (0,external_node_path_.isAbsolute)(relativePath))
        return undefined;
    return relativePath.split(external_node_path_.sep).join('/');
}
async function findNameInFile(path, name) {
    const handle = await (0,promises_.open)(path, 'r').catch(() => undefined);
    if (!handle)
        return undefined;
    try {
        const info = await handle.stat();
        if (!info.isFile() || info.size > MAX_SEARCHED_BYTES)
            return undefined;
        const lines = (await handle.readFile('utf8')).split(/\r?\n/);
        for (const candidate of searchTerms(name)) {
            const index = lines.findIndex((line) => line.includes(candidate));
            if (index >= 0)
                return index + 1;
        }
        return undefined;
    }
    finally {
        await handle.close();
    }
}
/**
 * What the source says of a test named in a report: the whole name, then shorter and shorter endings of
 * it (jest-junit prefixes the describe blocks, go subtests follow a `/`, pytest adds `[params]`).
 */
function searchTerms(name) {
    const withoutParams = name.replace(/\[.*\]$/, '').trim();
    const words = withoutParams.split(/ › | > |\/|::|\s+/).filter(Boolean);
    const endings = words.map((_, index) => words.slice(index).join(' '));
    return [...new Set([name, withoutParams, ...endings])].filter((term) => term.trim().length >= 3);
}

// EXTERNAL MODULE: ./node_modules/tinyglobby/dist/index.mjs + 1 modules
var dist = __webpack_require__(6448);
// EXTERNAL MODULE: ./src/core/errors.ts
var core_errors = __webpack_require__(4296);
// EXTERNAL MODULE: ./src/core/inputs.ts
var inputs = __webpack_require__(9114);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./node_modules/sax/lib/sax.js
var sax = __webpack_require__(2560);
var sax_default = /*#__PURE__*/__webpack_require__.n(sax);
;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/junit.ts
// Reads JUnit XML reports as a stream (sax, strict), one file at a time, keeping only what the gate needs:
// each test case's identity, where it is, and how it ended. The dialects differ in where they put things:
// jest-junit and the node test runner name the file on <testcase file>, pytest adds `line`, gotestsum
// puts the package in `classname`, Maven Surefire records reruns as <rerunFailure>/<flakyFailure>, Bazel
// wraps a target's cases in <testsuites>/<testsuite>, and suites may nest. A test that ran more than once
// (retries recorded as repeated test cases) failed only when no attempt passed.



const MAX_MESSAGE_CHARS = 500;
/** Text kept from a failure's body to find its first line; the rest (stack traces, output) is skipped. */
const MAX_BODY_CHARS = 4096;
/** The sax options of every read, shared with the benchmark's floor so that both parse alike. */
const SAX_OPTIONS = { trim: false, normalize: false, position: true, xmlns: false };
/** Collects the test cases of many reports; a case seen again is an attempt of the same test. */
class TestResults {
    onFirstFailure;
    byIdentity = new Map();
    reports = 0;
    cases = 0;
    /** `onFirstFailure` is told when the first failed test case is read (to start asking the service). */
    constructor(onFirstFailure) {
        this.onFirstFailure = onFirstFailure;
    }
    add(result) {
        this.cases++;
        if (result.outcome === 'failed' && this.onFirstFailure) {
            this.onFirstFailure();
            this.onFirstFailure = undefined;
        }
        const key = `${result.classname}\u0000${result.name}\u0000${result.file}\u0000${result.suite}`;
        const seen = this.byIdentity.get(key);
        const attempts = (seen?.attempts ?? 0) + result.attempts;
        const everPassed = seen?.outcome === 'passed' || result.outcome === 'passed';
        const everFailed = seen?.outcome === 'failed' ||
            result.outcome === 'failed' ||
            seen?.passedOnRetry ||
            result.passedOnRetry;
        if (everPassed) {
            this.byIdentity.set(key, { outcome: 'passed', attempts, passedOnRetry: Boolean(everFailed) });
        }
        else if (everFailed) {
            // The first failed attempt's details are kept: they say what went wrong.
            const kept = seen?.outcome === 'failed' ? seen : result;
            this.byIdentity.set(key, { ...kept, line: kept.line || result.line, attempts });
        }
        else {
            this.byIdentity.set(key, { outcome: 'skipped', attempts, passedOnRetry: false });
        }
    }
    /** Tests that failed at first and passed on a retry. */
    passedOnRetry() {
        let count = 0;
        for (const test of this.byIdentity.values())
            if (test.passedOnRetry)
                count++;
        return count;
    }
    failed() {
        return [...this.byIdentity.values()].filter((test) => test.outcome === 'failed');
    }
}
/** Reads one report into `results`; malformed or truncated XML is an InputError naming file and position. */
async function readJUnitReport(path, shownAs, results) {
    const parser = sax_default().parser(true, SAX_OPTIONS);
    const suites = [];
    const suiteFiles = [];
    let open;
    let sawRoot = false;
    let parseError;
    parser.onopentag = (tag) => {
        sawRoot = true;
        const attributes = tag.attributes;
        switch (tag.name) {
            case 'testsuite':
                suites.push(attributes.name ?? '');
                suiteFiles.push(attributes.file ?? attributes.filepath ?? suiteFiles.at(-1) ?? '');
                return;
            case 'testcase':
                open = {
                    flaky: false,
                    result: {
                        name: (attributes.name ?? '').trim(),
                        classname: (attributes.classname ?? '').trim(),
                        suite: suites.at(-1) ?? '',
                        file: attributes.file ?? attributes.filepath ?? suiteFiles.at(-1) ?? '',
                        line: positiveInteger(attributes.line),
                        outcome: skippedByStatus(attributes) ? 'skipped' : 'passed',
                        message: '',
                        attempts: 1,
                        passedOnRetry: false,
                        report: shownAs,
                    },
                };
                return;
        }
        if (!open)
            return;
        if (FAILURE_TAGS.has(tag.name)) {
            if (open.result.outcome !== 'failed') {
                open.result.outcome = 'failed';
                open.result.kind = tag.name.toLowerCase().endsWith('error') ? 'error' : 'failure';
                open.result.message = cap(attributes.message ?? '');
            }
            if (!open.result.message)
                open.body = '';
        }
        else if (tag.name === 'flakyFailure' || tag.name === 'flakyError') {
            open.flaky = true;
        }
        else if (tag.name === 'skipped' && open.result.outcome === 'passed') {
            open.result.outcome = 'skipped';
        }
    };
    parser.ontext = parser.oncdata = (text) => {
        if (open?.body !== undefined && open.body.length < MAX_BODY_CHARS) {
            open.body += text.slice(0, MAX_BODY_CHARS);
        }
    };
    parser.onclosetag = (name) => {
        if (name === 'testsuite') {
            suites.pop();
            suiteFiles.pop();
        }
        else if (name === 'testcase' && open) {
            const { result, flaky } = open;
            if (flaky && result.outcome === 'passed')
                result.passedOnRetry = true;
            results.add(result);
            open = undefined;
        }
        else if (open?.body !== undefined && FAILURE_TAGS.has(name)) {
            if (!open.result.message)
                open.result.message = cap(firstLine(open.body));
            open.body = undefined;
        }
    };
    parser.onerror = (error) => {
        parseError ??= error.message;
    };
    const stream = (0,external_node_fs_.createReadStream)(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
    try {
        for await (const chunk of stream) {
            parser.write(chunk);
            if (parseError)
                break;
        }
        if (!parseError)
            parser.close();
    }
    catch (error) {
        if (parseError)
            throw malformed(shownAs, parseError);
        throw new core_errors/* InputError */.d('junit-paths', `${shownAs} could not be read (${error.message})`, 'Check that the file exists and is readable.');
    }
    finally {
        stream.destroy();
    }
    if (parseError)
        throw malformed(shownAs, parseError);
    if (!sawRoot)
        throw malformed(shownAs, 'the file holds no XML element (it is empty or not XML)');
    results.reports++;
}
const FAILURE_TAGS = new Set(['failure', 'error', 'rerunFailure', 'rerunError']);
/** Bazel marks a target that did not run with status="notrun"; some runners write result="skipped". */
function skippedByStatus(attributes) {
    const status = (attributes.status ?? attributes.result ?? '').toLowerCase();
    return status === 'notrun' || status === 'skipped' || status === 'disabled';
}
/** sax says `message\nLine: 3\nColumn: 7\nChar: x`: one line with the position first. */
function malformed(shownAs, saxMessage) {
    const [what = 'malformed XML', ...rest] = saxMessage.split('\n');
    const position = Object.fromEntries(rest.map((line) => line.split(': ')).filter((pair) => pair.length === 2));
    const at = position.Line !== undefined ? ` at line ${Number(position.Line) + 1}, column ${position.Column}` : '';
    return new core_errors/* InputError */.d('junit-paths', `${shownAs} is not well-formed JUnit XML${at}: ${what.replace(/\.$/, '')}`, 'A truncated report usually means the test runner was killed while writing it; run the tests again, or leave the file out of junit-paths.');
}
function firstLine(text) {
    return (text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .find(Boolean) ?? '');
}
function cap(text) {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > MAX_MESSAGE_CHARS ? `${line.slice(0, MAX_MESSAGE_CHARS)}…` : line;
}
function positiveInteger(value) {
    const number = Number(value);
    return Number.isInteger(number) && number > 0 ? number : 0;
}

;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/reports.ts
// Finds the JUnit reports junit-paths names (globs, tinyglobby) and reads each one, one after another so
// that memory stays at one file's chunk however many reports there are.






/** More report files than this is a glob that caught far more than reports. */
const MAX_REPORTS = 20_000;
/** Reads every report; `onFirstFailure` is told as soon as one failed test case is read. */
async function readReports(globs, checkoutDir, onFirstFailure) {
    const files = await findReports(globs, checkoutDir);
    const results = new TestResults(onFirstFailure);
    for (const file of files)
        await readJUnitReport((0,external_node_path_.resolve)(checkoutDir, file), file, results);
    return results;
}
async function findReports(globs, checkoutDir) {
    const directory = await (0,promises_.stat)(checkoutDir).catch(() => undefined);
    if (!directory?.isDirectory()) {
        throw new core_errors/* InputError */.d('checkout-dir', `${(0,inputs/* quoted */.TL)(checkoutDir)} is not a directory`, 'Point it at the checkout.');
    }
    const files = await (0,dist/* glob */.TI)(globs, { cwd: checkoutDir, onlyFiles: true, dot: true, expandDirectories: false });
    if (!files.length) {
        throw new core_errors/* InputError */.d('junit-paths', `${globs.map(inputs/* quoted */.TL).join(', ')} matched no file under ${(0,inputs/* quoted */.TL)(checkoutDir)}`, 'Check the paths your test runner writes its JUnit reports to (they are relative to checkout-dir), and that the test step ran.');
    }
    if (files.length > MAX_REPORTS) {
        throw new core_errors/* InputError */.d('junit-paths', `matched ${files.length} files, more than ${MAX_REPORTS}`, 'Narrow the globs to the JUnit reports, e.g. `reports/**/*.xml`.');
    }
    return files.sort();
}

// EXTERNAL MODULE: ./src/core/operations/flaky-tests/pages.ts
var pages = __webpack_require__(8584);
// EXTERNAL MODULE: ./src/core/operations/flaky-tests/requests.ts
var requests = __webpack_require__(7300);
// EXTERNAL MODULE: ./src/core/operations/flaky-tests/tests.ts
var tests = __webpack_require__(1741);
;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/identity.ts
// Which test the service means: its identity is the test's name, its classname or parent (the suite it
// is in), its file and its variant, as the service's uploader reads them from the same JUnit reports.
// docs/flaky-tests.md spells the rule out; in short, the name and variant must be equal, and the
// classname, parent and file are compared only where both sides know them.

/** Reads the identity fields of a listed test; quarantined tests say `file`, the others `file_path`. */
function knownTest(entry) {
    return {
        name: (0,tests/* text */.Qq)(entry.name).trim(),
        classname: (0,tests/* text */.Qq)(entry.classname).trim(),
        parent: (0,tests/* text */.Qq)(entry.parent).trim(),
        file: (0,tests/* text */.Qq)(entry.file ?? entry.file_path).trim(),
        variant: (0,tests/* text */.Qq)(entry.variant).trim(),
        entry,
    };
}
/** The service's tests by name, so that 50,000 results are matched against 10,000 tests in a moment. */
class TestIndex {
    byName = new Map();
    constructor(tests) {
        for (const test of tests) {
            const same = this.byName.get(test.name);
            if (same)
                same.push(test);
            else
                this.byName.set(test.name, [test]);
        }
    }
    /** The service's entry for this result in this variant, if it knows the test. */
    find(result, variant) {
        return this.byName.get(result.name)?.find((known) => sameTest(known, result, variant))?.entry;
    }
}
function sameTest(known, result, variant) {
    if (known.variant !== variant)
        return false;
    if (known.classname && result.classname) {
        if (known.classname !== result.classname)
            return false;
    }
    else if (known.parent && known.parent !== result.suite && known.parent !== result.classname) {
        return false;
    }
    return !known.file || !result.file || samePath(known.file, result.file);
}
/**
 * One path ends the other, segment by segment: the service stores paths relative to the repository,
 * while reports often name them absolute (`/home/runner/work/repo/repo/src/a.test.ts`).
 */
function samePath(a, b) {
    const left = segments(a);
    const right = segments(b);
    const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
    if (!shorter.length)
        return false;
    const offset = longer.length - shorter.length;
    return shorter.every((segment, index) => segment === longer[offset + index]);
}
function segments(path) {
    return path
        .replace(/\\/g, '/')
        .split('/')
        .filter((segment) => segment && segment !== '.');
}

;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/service-lists.ts
// What the service knows about the run's failed tests: the quarantined list (the gate), and for the
// verdicts the unhealthy tests (flaky, broken) and the tests failing in the window. All listings are
// fetched at once, every page; an outage is told apart from a refusal (a wrong token or repository).




async function fetchServiceLists(op) {
    const { pageSize, maxPages, startTime, endTime } = op.settings;
    const base = (0,requests/* flakyRequestBase */.I8)(op);
    const stop = new AbortController();
    let response;
    const listing = (label, itemsField, fetchPage, onPage) => (0,pages/* followPages */.k)({ label, itemsField, pageSize, maxPages, fetchPage, onPage, stop: stop.signal })
        .then(({ items }) => items)
        .catch((error) => {
        stop.abort();
        throw error;
    });
    const notFound = (0,requests/* adviseOnNotFound */.Nn)(requests/* REPOSITORY_NOT_FOUND */.cv);
    const settled = await Promise.allSettled([
        listing('list-quarantined-tests', 'quarantined_tests', (page_query) => op.client.listQuarantinedTests({ ...base, page_query }).catch(notFound), (page) => (response = page)),
        listing('list-unhealthy-tests (FLAKY)', 'tests', (page_query) => op.client.listUnhealthyTests({ ...base, page_query, status: 'FLAKY' }).catch(notFound)),
        listing('list-unhealthy-tests (BROKEN)', 'tests', (page_query) => op.client.listUnhealthyTests({ ...base, page_query, status: 'BROKEN' }).catch(notFound)),
        listing('list-failing-tests', 'tests', (page_query) => op.client
            .listFailingTests({ ...base, page_query, start_time: startTime ?? '', end_time: endTime ?? '' })
            .catch(notFound)),
    ]);
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed)
        throw failed.reason;
    const [quarantined, flaky, broken, failing] = settled.map((result) => result.status === 'fulfilled' ? result.value : []);
    return {
        quarantined: new TestIndex(quarantined.map(knownTest)),
        flaky: new TestIndex(flaky.map(knownTest)),
        broken: new TestIndex(broken.map(knownTest)),
        failing: new TestIndex(failing.map(knownTest)),
        quarantinedCount: quarantined.length,
        response,
    };
}
/**
 * An outage: no answer, a timeout, a 5xx or 429 after the client's retries, or an answer that is not
 * the service's. A refusal (401, 403, 404: a token or repository to fix) is not one.
 */
function isOutage(error) {
    if (error instanceof errors/* ApiError */.hD) {
        if (error.kind === 'http')
            return error.status === undefined || error.status >= 500 || error.status === 429;
        return error.kind !== 'redirect';
    }
    // A listing that answered a page that is not JSON (a proxy's page) fails in followPages as a plain Error.
    return error instanceof Error && error.name === 'Error' && /not a JSON page/.test(error.message);
}

// EXTERNAL MODULE: ./src/core/report/markdown.ts
var markdown = __webpack_require__(4201);
// EXTERNAL MODULE: ./src/core/report/chart.ts
var chart = __webpack_require__(4134);
// EXTERNAL MODULE: ./src/core/operations/flaky-tests/check-test-results/verdicts.ts
var verdicts = __webpack_require__(3795);
;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/summary.ts
// The gate's job summary: the outcome in one line, what failed the step in its own table, a chart of the
// failures per owning team (the checkout's CODEOWNERS), the rest collapsed.




const ROWS_SHOWN = 25;
const MAX_TEAMS = 8;
function summarizeGate(op, outcome) {
    const { failures, outage } = outcome;
    const failing = failures.filter((failure) => failure.failsStep);
    const quarantined = failures.filter((failure) => failure.verdict === 'quarantined');
    const others = failures.filter((failure) => !failure.failsStep && failure.verdict !== 'quarantined');
    const summary = new markdown/* Markdown */.oz().heading(headline(outcome, failing.length, quarantined.length));
    const ran = `${outcome.cases} test case(s) in ${outcome.reports} report(s)${outcome.passedOnRetry ? `; ${outcome.passedOnRetry} passed on a retry` : ''}.`;
    if (outage) {
        summary.paragraph(`**The flaky-tests service could not be reached**, so no failure was checked against the quarantine (on-service-error: \`${outcome.onServiceError}\`). ${(0,markdown/* escapeMarkdown */.FV)(outage)}`);
    }
    else if (failures.length) {
        const counts = ['quarantined', 'known-flaky', 'failing-on-target', 'new']
            .map((verdict) => [verdict, failures.filter((failure) => failure.verdict === verdict).length])
            .filter(([, count]) => count > 0)
            .map(([verdict, count]) => `${count} ${verdicts/* VERDICT_LABELS */.W4[verdict]}`);
        const decided = failing.length
            ? `\`fail-on-verdict: ${outcome.failOnVerdicts.join(',')}\` failed this step.`
            : `Nothing in \`fail-on-verdict: ${outcome.failOnVerdicts.join(',')}\` failed.`;
        summary.paragraph(`${decided} Of ${failures.length} failed test(s): ${counts.join(', ')}. ${ran}`);
    }
    else {
        summary.paragraph(ran);
    }
    const chart = teamChart(failures);
    if (chart)
        summary.paragraph(chart);
    if (failing.length) {
        summary
            .heading(`Failed this step (${failing.length})`, 3)
            .table(HEADERS, failing.slice(0, ROWS_SHOWN).map(row), 'in report-file', failing.length);
    }
    if (others.length) {
        const title = outage ? `Not checked (${others.length})` : `Not failing this step (${others.length})`;
        summary
            .heading(title, 3)
            .table(HEADERS, others.slice(0, ROWS_SHOWN).map(row), 'in report-file', others.length);
    }
    if (quarantined.length) {
        summary.details(`Quarantined: ${quarantined.length} failure(s) kept from failing the step`, new markdown/* Markdown */.oz()
            .table(HEADERS, quarantined.slice(0, ROWS_SHOWN).map(row), 'in report-file', quarantined.length)
            .toString());
    }
    return summary;
}
function headline(outcome, failing, quarantined) {
    const total = outcome.failures.length;
    if (outcome.outage) {
        return outcome.onServiceError === 'fail'
            ? `❌ ${total} failed test(s) not checked: the flaky-tests service could not be reached`
            : `⚠️ ${total} failed test(s) not checked: the flaky-tests service could not be reached (passed with a warning)`;
    }
    if (!total)
        return `✅ No test failed`;
    if (failing)
        return `❌ ${failing} of ${total} failed test(s) fail this step`;
    if (quarantined === total)
        return `✅ ${total} failed test(s), all quarantined`;
    return `✅ ${total} failed test(s), none that fails this step (${quarantined} quarantined)`;
}
const HEADERS = ['Test', 'Verdict', 'Owner', 'File', 'Message'];
function row(failure) {
    const { test, entry } = failure;
    const name = test.classname && !test.name.includes(test.classname) ? `${test.classname} › ${test.name}` : test.name;
    return [
        (0,tests/* testLink */.nf)({ name, id: '', htmlUrl: (0,tests/* text */.Qq)(entry?.html_url) || undefined }),
        failure.verdict === 'unchecked' ? 'not checked' : (0,markdown/* escapeMarkdown */.FV)(verdicts/* VERDICT_LABELS */.W4[failure.verdict]),
        (0,tests/* owners */.Zk)(failure.owners),
        (0,tests/* cell */.Hn)(test.line ? `${test.file}:${test.line}` : test.file),
        (0,tests/* cell */.Hn)(test.message),
    ];
}
/** Failures per owning team: all of a team's failures, with those that fail the step drawn over them. */
function teamChart(failures) {
    if (failures.length < 2 || !failures.some((failure) => failure.owners.length))
        return '';
    const byTeam = new Map();
    for (const failure of failures) {
        const team = failure.owners[0] ?? '(no owner)';
        const counts = byTeam.get(team) ?? { all: 0, failing: 0 };
        counts.all++;
        if (failure.failsStep)
            counts.failing++;
        byTeam.set(team, counts);
    }
    const teams = [...byTeam].sort(([a, x], [b, y]) => y.all - x.all || a.localeCompare(b)).slice(0, MAX_TEAMS);
    return (0,chart/* overlaidBarChart */.A)({
        title: 'Failed tests by owning team (dark: fail this step)',
        categories: teams.map(([team]) => team),
        series: [{ values: teams.map(([, c]) => c.all) }, { values: teams.map(([, c]) => c.failing) }],
        yLabel: 'tests',
    });
}

;// CONCATENATED MODULE: ./src/core/operations/flaky-tests/check-test-results/operation.ts
// check-test-results, the quarantine gate: reads the run's JUnit reports, gives each failed test a
// verdict from what the service knows (quarantined, known flaky, failing on the target branch, or new),
// annotates the unquarantined ones at their file and line, and fails the step only for the verdicts in
// fail-on-verdict. When the service cannot be reached, on-service-error decides, and says so loudly.









/** The platforms show about 10 annotations of a level per step and drop the rest silently. */
const MAX_ANNOTATIONS_PER_LEVEL = 10;
/** Failures listed in an output; the report file has every one. */
const MAX_OUTPUT_FAILURES = 200;
const checkTestResults = async (op) => {
    const { junitPaths, checkoutDir, onServiceError, failOnVerdicts } = op.settings;
    // The service is asked while the rest of the reports are read, from the first failure on; a run
    // without failures never asks it.
    let asked;
    const results = await readReports(junitPaths, checkoutDir, () => {
        asked = fetchServiceLists(op);
        // Handled below; this keeps a report that turns out malformed from leaving it unhandled.
        asked.catch(() => undefined);
    });
    const failures = results.failed();
    op.log.info(`Read ${results.cases} test case(s) in ${results.reports} report(s); ${failures.length} test(s) failed.`);
    let lists;
    let outage;
    if (failures.length && asked) {
        try {
            lists = await asked;
        }
        catch (error) {
            if (!isOutage(error))
                throw error;
            outage = describeOutage(error);
        }
    }
    const codeOwners = failures.length ? await readCodeOwners(checkoutDir) : undefined;
    const checked = failures.map((test) => {
        const known = lists && serviceEntries(lists, test, op.settings.variant);
        const verdict = known ? (0,verdicts/* verdictOf */.Vj)(known.status) : 'unchecked';
        const file = inCheckout(test.file, checkoutDir);
        return {
            test,
            verdict,
            failsStep: verdict !== 'unchecked' && failOnVerdicts.includes(verdict),
            owners: (file && codeOwners?.ownersOf(file)) || [],
            entry: known?.entry,
        };
    });
    const outcome = {
        cases: results.cases,
        reports: results.reports,
        passedOnRetry: results.passedOnRetry(),
        failures: checked,
        outage,
        onServiceError,
        failOnVerdicts,
        quarantinedKnown: lists?.quarantinedCount,
        codeOwnersSource: codeOwners?.source,
    };
    await annotate(op, checked, outage !== undefined);
    if (outage)
        op.log.warning(outageLine(outage, failures.length, onServiceError));
    const reportFile = await (0,report_file/* writeReportFile */.a)(op, 'test-results.json', {
        junit_paths: junitPaths,
        variant: op.settings.variant,
        reports: results.reports,
        test_cases: results.cases,
        service_error: outage ?? null,
        failures: checked.map((failure) => ({ ...failureOutput(failure), owners: failure.owners })),
    });
    const quarantined = checked.filter((failure) => failure.verdict === 'quarantined');
    const unquarantined = checked.filter((failure) => failure.verdict !== 'quarantined');
    const failing = checked.filter((failure) => failure.failsStep);
    const outputs = {
        response: (0,common/* rawResponse */.ml)(lists?.response),
        'failed-count': failures.length,
        'quarantined-failures': failuresOutput(quarantined),
        'unquarantined-failures': failuresOutput(unquarantined),
        'step-failing-count': failing.length,
        'service-error': outage ?? '',
        'report-file': reportFile,
    };
    const failure = outage
        ? onServiceError === 'fail'
            ? outageLine(outage, failures.length, onServiceError)
            : undefined
        : failing.length
            ? `${failing.length} failed test(s) are ${failOnVerdicts.map((v) => verdicts/* VERDICT_LABELS */.W4[v]).join(' or ')} (fail-on-verdict: ${failOnVerdicts.join(',')}); ${quarantined.length} of ${failures.length} failure(s) are quarantined. The job summary lists them; report-file has every failure.`
            : undefined;
    return { outputs, summary: summarizeGate(op, outcome), failure };
};
function serviceEntries(lists, test, variant) {
    const quarantined = lists.quarantined.find(test, variant);
    const flaky = lists.flaky.find(test, variant);
    const broken = lists.broken.find(test, variant);
    const failing = lists.failing.find(test, variant);
    return {
        status: {
            quarantined: quarantined !== undefined,
            unhealthyStatus: flaky ? 'flaky' : broken ? 'broken' : undefined,
            failingInWindow: failing !== undefined,
        },
        entry: flaky ?? broken ?? failing ?? quarantined,
    };
}
function outageLine(outage, failed, onServiceError) {
    return onServiceError === 'fail'
        ? `The flaky-tests service could not be reached (${outage}), so ${failed} failed test(s) could not be checked against the quarantine; the step fails because on-service-error is fail.`
        : `The flaky-tests service could not be reached (${outage}), so ${failed} failed test(s) were NOT checked against the quarantine. The step passes because on-service-error is pass-with-warning: look at the failures below before merging.`;
}
/**
 * Each failure that is not quarantined, at its test: errors for those that fail the step, warnings for
 * the rest; at most 10 of each, and one notice that says how many more there are.
 */
async function annotate(op, failures, unchecked) {
    const errors = failures.filter((failure) => failure.failsStep);
    const warnings = failures.filter((failure) => !failure.failsStep && failure.verdict !== 'quarantined');
    for (const [level, group] of [
        ['error', errors],
        ['warning', warnings],
    ]) {
        for (const failure of group.slice(0, MAX_ANNOTATIONS_PER_LEVEL)) {
            const location = await locateTest(failure.test, op.settings.checkoutDir);
            const why = unchecked
                ? 'not checked: the service could not be reached'
                : verdicts/* VERDICT_LABELS */.W4[failure.verdict];
            const message = failure.test.message ? `${failure.test.message}\n(${why})` : `Failed (${why})`;
            op.log.annotate(level, message, { title: testTitle(failure.test), ...location });
        }
        const more = group.length - MAX_ANNOTATIONS_PER_LEVEL;
        if (more > 0) {
            op.log.annotate('notice', `${more} more failed test(s) at ${level} level are not annotated (at most ${MAX_ANNOTATIONS_PER_LEVEL} each); the job summary and report-file list every one.`, { title: op.operation });
        }
    }
}
function testTitle(test) {
    const title = test.classname && !test.name.includes(test.classname) ? `${test.classname} › ${test.name}` : test.name;
    return title.length > 200 ? `${title.slice(0, 200)}…` : title;
}
function failureOutput(failure) {
    const { test } = failure;
    return {
        name: test.name,
        classname: test.classname,
        file: test.file,
        ...(test.line ? { line: test.line } : {}),
        message: test.message,
        verdict: failure.verdict,
    };
}
function failuresOutput(failures) {
    return JSON.stringify(failures.slice(0, MAX_OUTPUT_FAILURES).map(failureOutput));
}


/***/ })

};
