export const id = 897;
export const ids = [897];
export const modules = {

/***/ 5897:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   DOTENV_LIMITS: () => (/* binding */ DOTENV_LIMITS),
/* harmony export */   GITLAB_DIALECT: () => (/* binding */ GITLAB_DIALECT),
/* harmony export */   dotenvName: () => (/* binding */ dotenvName),
/* harmony export */   dotenvReport: () => (/* binding */ dotenvReport),
/* harmony export */   gitlabCiFacts: () => (/* binding */ gitlabCiFacts),
/* harmony export */   gitlabCiHost: () => (/* binding */ gitlabCiHost)
/* harmony export */ });
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _common_files_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8814);
/* harmony import */ var _common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1954);
/* harmony import */ var _common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7481);
// GitLab CI: the merge request from CI_MERGE_REQUEST_* (or CI_EXTERNAL_PULL_REQUEST_* for a GitHub
// repository built by GitLab), the repository from CI_PROJECT_PATH or the remote URL; outputs in a dotenv
// report for later jobs, the summary as a markdown file, groups as collapsible sections.




function gitlabCiFacts(env) {
    const notes = [];
    const read = (0,_common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_3__/* .variableReader */ .gc)(env, notes);
    const server = read.text('CI_SERVER_URL');
    const host = (server && URL.canParse(server.value) ? new URL(server.value).host : undefined) ??
        read.text('CI_SERVER_HOST')?.value;
    const path = read.text('CI_PROJECT_PATH');
    const slash = path?.value.lastIndexOf('/') ?? -1;
    const repo = path && host && slash > 0
        ? {
            value: {
                host: host.toLowerCase(),
                owner: path.value.slice(0, slash),
                name: path.value.slice(slash + 1),
            },
            source: 'CI_PROJECT_PATH',
        }
        : read.remote('CI_REPOSITORY_URL');
    const external = !read.text('CI_MERGE_REQUEST_IID') && !!read.text('CI_EXTERNAL_PULL_REQUEST_IID');
    const prNumber = read.prNumber('CI_MERGE_REQUEST_IID') ?? read.prNumber('CI_EXTERNAL_PULL_REQUEST_IID');
    // In merged-results and merge-train pipelines CI_COMMIT_SHA is the merge commit, not the MR's head.
    const eventType = read.text('CI_MERGE_REQUEST_EVENT_TYPE')?.value;
    const commitIsHead = !external && eventType !== 'merged_result' && eventType !== 'merge_train';
    const headSha = prNumber
        ? (read.sha('CI_MERGE_REQUEST_SOURCE_BRANCH_SHA') ??
            read.sha('CI_EXTERNAL_PULL_REQUEST_SOURCE_BRANCH_SHA') ??
            (commitIsHead ? read.sha('CI_COMMIT_SHA') : undefined))
        : undefined;
    const [source, target] = external
        ? ['CI_EXTERNAL_PULL_REQUEST_SOURCE_REPOSITORY', 'CI_EXTERNAL_PULL_REQUEST_TARGET_REPOSITORY']
        : ['CI_MERGE_REQUEST_SOURCE_PROJECT_PATH', 'CI_MERGE_REQUEST_PROJECT_PATH'];
    const sourcePath = read.text(source)?.value;
    const targetPath = read.text(target)?.value;
    const asRepo = (full) => ({
        host: '',
        owner: full.slice(0, full.lastIndexOf('/')),
        name: full.slice(full.lastIndexOf('/') + 1),
    });
    const isFork = sourcePath && targetPath ? !(0,_common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_3__/* .sameRepo */ .Zj)(asRepo(sourcePath), asRepo(targetPath)) : undefined;
    const pipelineSource = read.text('CI_PIPELINE_SOURCE')?.value ?? 'unknown';
    return {
        ci: 'GitLab CI',
        repo,
        prNumber,
        headSha,
        targetBranch: read.branch('CI_MERGE_REQUEST_TARGET_BRANCH_NAME') ??
            read.branch('CI_EXTERNAL_PULL_REQUEST_TARGET_BRANCH_NAME'),
        branch: read.branch('CI_COMMIT_BRANCH') ?? read.branch('CI_COMMIT_REF_NAME'),
        defaultBranch: read.branch('CI_DEFAULT_BRANCH'),
        isFork,
        forkSource: sourcePath,
        runId: read.text('CI_PIPELINE_ID')?.value,
        runUrl: read.text('CI_PIPELINE_URL')?.value,
        trigger: pipelineSource,
        variables: {
            repo: 'CI_PROJECT_PATH',
            prNumber: 'CI_MERGE_REQUEST_IID',
            headSha: 'CI_COMMIT_SHA',
            targetBranch: 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
        },
        noPullRequest: `CI_MERGE_REQUEST_IID is not set: this is a ${pipelineSource} pipeline, not a merge request pipeline`,
        notes,
    };
}
const ESC = '\u001b';
const GITLAB_DIALECT = {
    // Section markers in text from outside would open or close sections of the job log.
    neutralise: (text) => text.replace(/section_(start|end):/g, 'section_$1\u200b:'),
    groupStart: (title, id) => `${ESC}[0Ksection_start:${Math.floor(Date.now() / 1000)}:${id}[collapsed=true]\r${ESC}[0K${title}`,
    groupEnd: (_title, id) => `${ESC}[0Ksection_end:${Math.floor(Date.now() / 1000)}:${id}\r${ESC}[0K`,
    warning: (message, title) => `${ESC}[33mWarning${title ? ` (${title})` : ''}:${ESC}[0m ${message}`,
    error: (message, title) => `${ESC}[31mError${title ? ` (${title})` : ''}:${ESC}[0m ${message}`,
};
/** GitLab's limits on a dotenv report (gitlab.com and self-managed defaults). */
const DOTENV_LIMITS = { bytes: 5120, variables: 20 };
/** The dotenv variable an output becomes: MERGE_QUEUE_OUTPUT_<NAME>, apart from the inputs' variables. */
function dotenvName(output) {
    return `MERGE_QUEUE_OUTPUT_${output.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
/**
 * The dotenv report: one KEY=value line per output, the typed outputs first and `response` last, leaving
 * out (with a warning naming them) values GitLab cannot carry: several lines, or past its size limits.
 */
function dotenvReport(outputs) {
    const names = Object.keys(outputs).sort((a, b) => Number(a === 'response') - Number(b === 'response'));
    const lines = [];
    const left = [];
    let bytes = 0;
    for (const name of names) {
        const value = outputs[name];
        const line = `${dotenvName(name)}=${value}\n`;
        const size = Buffer.byteLength(line);
        if (/[\r\n]/.test(value) ||
            bytes + size > DOTENV_LIMITS.bytes ||
            lines.length >= DOTENV_LIMITS.variables) {
            left.push(name);
            continue;
        }
        lines.push(line);
        bytes += size;
    }
    return { text: lines.join(''), left };
}
function gitlabPublisher({ options, log }) {
    const projectDir = options.env.CI_PROJECT_DIR || options.cwd;
    const dotenvPath = options.files.dotenv ?? (0,node_path__WEBPACK_IMPORTED_MODULE_0__.join)(projectDir, 'merge-queue.env');
    const dotenv = (0,_common_files_js__WEBPACK_IMPORTED_MODULE_1__/* .appendedFile */ .O)(dotenvPath, options.cwd, '--dotenv-file');
    const summary = (0,_common_files_js__WEBPACK_IMPORTED_MODULE_1__/* .appendedFile */ .O)(options.files.summary ?? (0,node_path__WEBPACK_IMPORTED_MODULE_0__.join)(projectDir, 'merge-queue-summary.md'), options.cwd, '--summary-file');
    const json = options.files.outputs ? (0,_common_files_js__WEBPACK_IMPORTED_MODULE_1__/* .jsonOutputsFile */ .v)(options.files.outputs, options.cwd) : undefined;
    const outputs = {};
    const leftOut = new Set();
    return {
        async setOutputs(values) {
            Object.assign(outputs, values);
            const report = dotenvReport(outputs);
            await dotenv.replace(report.text);
            await json?.(values);
            const newlyLeft = report.left.filter((name) => !leftOut.has(name));
            newlyLeft.forEach((name) => leftOut.add(name));
            if (newlyLeft.length) {
                log.warning(`Not in the dotenv report (GitLab takes single-line values, at most ${DOTENV_LIMITS.variables} variables and ${DOTENV_LIMITS.bytes} bytes): ${newlyLeft.join(', ')}; read them with --json or --outputs-file instead.`);
            }
        },
        async writeSummary(markdown) {
            try {
                await summary.append(`${markdown}\n`);
            }
            catch (error) {
                log.warning(`The summary was not written: ${error.message}`);
            }
        },
        finish: async () => undefined,
    };
}
function gitlabCiHost(options) {
    return (0,_common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_2__/* .pipelineHost */ .x)({ name: 'gitlab-ci', dialect: GITLAB_DIALECT, facts: gitlabCiFacts, publish: gitlabPublisher }, options);
}


/***/ })

};
