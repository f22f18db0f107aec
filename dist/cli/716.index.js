export const id = 716;
export const ids = [716];
export const modules = {

/***/ 4716:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BUILDKITE_DIALECT: () => (/* binding */ BUILDKITE_DIALECT),
/* harmony export */   buildkiteFacts: () => (/* binding */ buildkiteFacts),
/* harmony export */   buildkiteHost: () => (/* binding */ buildkiteHost)
/* harmony export */ });
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1421);
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_child_process__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1954);
/* harmony import */ var _common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7481);
// Buildkite: the pull request from BUILDKITE_PULL_REQUEST ("false" on other builds), the repository from
// BUILDKITE_REPO; outputs as build meta-data and the summary as an annotation, both through
// buildkite-agent; groups as `---` headers.



function buildkiteFacts(env) {
    const notes = [];
    const read = (0,_common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__/* .variableReader */ .gc)(env, notes);
    const pullRequest = read.text('BUILDKITE_PULL_REQUEST');
    const isPullRequest = pullRequest !== undefined && pullRequest.value !== 'false';
    const prNumber = isPullRequest ? read.prNumber('BUILDKITE_PULL_REQUEST') : undefined;
    const repo = read.remote('BUILDKITE_REPO');
    const headRepo = isPullRequest ? read.remote('BUILDKITE_PULL_REQUEST_REPO') : undefined;
    return {
        ci: 'Buildkite',
        repo,
        prNumber,
        headSha: prNumber ? read.sha('BUILDKITE_COMMIT') : undefined,
        targetBranch: prNumber ? read.branch('BUILDKITE_PULL_REQUEST_BASE_BRANCH') : undefined,
        branch: read.branch('BUILDKITE_BRANCH'),
        defaultBranch: read.branch('BUILDKITE_PIPELINE_DEFAULT_BRANCH'),
        isFork: headRepo && repo ? !(0,_common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__/* .sameRepo */ .Zj)(headRepo.value, repo.value) : undefined,
        forkSource: headRepo && `${headRepo.value.owner}/${headRepo.value.name}`,
        runId: read.text('BUILDKITE_BUILD_ID')?.value,
        runUrl: read.text('BUILDKITE_BUILD_URL')?.value,
        trigger: read.text('BUILDKITE_SOURCE')?.value ?? 'unknown',
        variables: {
            repo: 'BUILDKITE_REPO',
            prNumber: 'BUILDKITE_PULL_REQUEST',
            headSha: 'BUILDKITE_COMMIT',
            targetBranch: 'BUILDKITE_PULL_REQUEST_BASE_BRANCH',
        },
        noPullRequest: pullRequest
            ? 'BUILDKITE_PULL_REQUEST is "false": this build is not for a pull request'
            : undefined,
        notes,
    };
}
const BUILDKITE_DIALECT = {
    // A line starting with ---, +++, ~~~ or ^^^ would open, expand or reshape a group of the build log.
    neutralise: (text) => text.replace(/^(---|\+\+\+|~~~|\^\^\^)/gm, '\u200b$1'),
    groupStart: (title) => `--- ${title}`,
    groupEnd: () => '',
    warning: (message, title) => `Warning${title ? ` (${title})` : ''}: ${message}`,
    // Opens the group the error happened in, so that it is seen without a click.
    error: (message, title) => `^^^ +++\nError${title ? ` (${title})` : ''}: ${message}`,
};
/** Buildkite's limit on an annotation's body. */
const ANNOTATION_BYTES = 1024 * 1024;
/** Runs buildkite-agent with the given arguments and stdin; rejects with one line on failure. */
function agentRunner(env, cwd) {
    return (args, input) => new Promise((resolve, reject) => {
        const child = (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.execFile)('buildkite-agent', args, { env: { ...env }, cwd, timeout: 60_000, maxBuffer: 1024 * 1024 }, (error, _stdout, stderr) => {
            if (!error)
                return resolve();
            const code = error.code;
            const said = String(stderr).trim().split('\n').pop();
            reject(new Error(code === 'ENOENT'
                ? 'buildkite-agent is not on PATH'
                : `buildkite-agent ${args[0]} ${args[1] ?? ''} failed${said ? `: ${said}` : ''}`));
        });
        child.stdin?.end(input);
    });
}
function buildkitePublisher({ options, log, warningsLogged }) {
    const agent = agentRunner(options.env, options.cwd);
    const operation = options.input('operation').trim() || 'merge-queue-action';
    let summary = '';
    let agentMissing = false;
    const tell = (what, error) => {
        const message = error.message;
        if (message === 'buildkite-agent is not on PATH') {
            if (agentMissing)
                return;
            agentMissing = true;
        }
        log.warning(`${what}: ${message}.`);
    };
    return {
        async setOutputs(values) {
            for (const [name, value] of Object.entries(values)) {
                // The agent refuses an empty value; `meta-data get <name> --default ''` reads it as empty.
                if (!value || agentMissing)
                    continue;
                await agent(['meta-data', 'set', name], value).catch((error) => tell(`Output ${name} was not set as meta-data`, error));
            }
        },
        async writeSummary(markdown) {
            summary += `${markdown}\n`;
        },
        // The annotation's style says how the run ended, which only the end knows.
        async finish(exitCode) {
            if (!summary.trim() || agentMissing)
                return;
            const style = exitCode !== 0 ? 'error' : warningsLogged() > 0 ? 'warning' : 'success';
            const body = Buffer.byteLength(summary) > ANNOTATION_BYTES ? truncate(summary) : summary;
            await agent(['annotate', '--style', style, '--context', operation], body).catch((error) => tell('The summary was not annotated', error));
        },
    };
}
function truncate(markdown) {
    const note = '\n\n_(cut to fit Buildkite’s annotation size)_\n';
    return (Buffer.from(markdown)
        .subarray(0, ANNOTATION_BYTES - 1024)
        .toString('utf8') + note);
}
function buildkiteHost(options) {
    return (0,_common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__/* .pipelineHost */ .x)({ name: 'buildkite', dialect: BUILDKITE_DIALECT, facts: buildkiteFacts, publish: buildkitePublisher }, options);
}


/***/ })

};
