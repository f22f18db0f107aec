export const id = 571;
export const ids = [571];
export const modules = {

/***/ 9571:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   circleciFacts: () => (/* binding */ circleciFacts),
/* harmony export */   circleciHost: () => (/* binding */ circleciHost)
/* harmony export */ });
/* harmony import */ var _common_log_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9731);
/* harmony import */ var _common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1954);
/* harmony import */ var _common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7481);
// CircleCI: the pull request from CIRCLE_PR_NUMBER (fork PRs) or the tail of CIRCLE_PULL_REQUEST, the head
// from CIRCLE_SHA1. CircleCI names no base branch: it comes from the target-branch input (or
// TRUNK_TARGET_BRANCH), else the GitHub API with a github-token, else the run stops saying so.



function circleciFacts(env) {
    const notes = [];
    const read = (0,_common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__/* .variableReader */ .gc)(env, notes);
    const pullRequestUrl = read.text('CIRCLE_PULL_REQUEST');
    const tail = pullRequestUrl && /\/pull\/(\d+)\/?$/.exec(pullRequestUrl.value)?.[1];
    const prNumber = read.prNumber('CIRCLE_PR_NUMBER') ??
        (tail
            ? { value: (0,_common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__/* .pullRequestNumber */ .Kd)(tail, 'CIRCLE_PULL_REQUEST'), source: 'CIRCLE_PULL_REQUEST' }
            : undefined);
    if (pullRequestUrl && !tail && !prNumber)
        notes.push('CIRCLE_PULL_REQUEST does not end in /pull/<number>; ignored');
    const owner = read.text('CIRCLE_PROJECT_USERNAME')?.value;
    const name = read.text('CIRCLE_PROJECT_REPONAME')?.value;
    const repo = read.remote('CIRCLE_REPOSITORY_URL') ??
        (owner && name
            ? {
                value: { host: 'github.com', owner, name },
                source: 'CIRCLE_PROJECT_USERNAME/CIRCLE_PROJECT_REPONAME',
            }
            : undefined);
    // Set only on builds of a PR from a fork.
    const forkOwner = read.text('CIRCLE_PR_USERNAME')?.value;
    const forkName = read.text('CIRCLE_PR_REPONAME')?.value;
    const isFork = prNumber
        ? !!read.text('CIRCLE_PR_NUMBER') || (!!forkOwner && forkOwner !== owner)
        : undefined;
    return {
        ci: 'CircleCI',
        repo,
        prNumber,
        headSha: prNumber ? read.sha('CIRCLE_SHA1') : undefined,
        branch: read.branch('CIRCLE_BRANCH'),
        isFork,
        forkSource: forkOwner && forkName ? `${forkOwner}/${forkName}` : forkOwner,
        runId: read.text('CIRCLE_WORKFLOW_ID')?.value,
        runUrl: read.text('CIRCLE_BUILD_URL')?.value,
        trigger: prNumber ? 'pull request' : 'branch',
        variables: {
            repo: 'CIRCLE_REPOSITORY_URL',
            prNumber: 'CIRCLE_PULL_REQUEST',
            headSha: 'CIRCLE_SHA1',
            targetBranch: 'TRUNK_TARGET_BRANCH (CircleCI has no base-branch variable)',
        },
        notes,
    };
}
function circleciHost(options) {
    return (0,_common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__/* .pipelineHost */ .x)({ name: 'circleci', dialect: _common_log_js__WEBPACK_IMPORTED_MODULE_0__/* .PLAIN_DIALECT */ .UW, facts: circleciFacts, publish: _common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__/* .filePublisher */ .V }, options);
}


/***/ })

};
