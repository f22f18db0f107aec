export const id = 185;
export const ids = [185];
export const modules = {

/***/ 8185:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   jenkinsFacts: () => (/* binding */ jenkinsFacts),
/* harmony export */   jenkinsHost: () => (/* binding */ jenkinsHost)
/* harmony export */ });
/* harmony import */ var _common_log_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9731);
/* harmony import */ var _common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1954);
/* harmony import */ var _common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(7481);
/* harmony import */ var _common_remote_url_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6371);
// Jenkins: a multibranch project's change request (CHANGE_ID, CHANGE_TARGET, CHANGE_FORK) or the GitHub
// pull request builder's ghprb* variables; the head from ghprbActualCommit or GIT_COMMIT; the repository
// from ghprbGhRepository or the remote URL.




function jenkinsFacts(env) {
    const notes = [];
    const read = (0,_common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__/* .variableReader */ .gc)(env, notes);
    const prNumber = read.prNumber('CHANGE_ID') ?? read.prNumber('ghprbPullId');
    const remote = read.remote('GIT_URL');
    const ghprbRepo = read.text('ghprbGhRepository')?.value;
    const changeUrl = read.text('CHANGE_URL')?.value;
    const fromChangeUrl = changeUrl && (0,_common_remote_url_js__WEBPACK_IMPORTED_MODULE_3__/* .parseRemoteUrl */ .J)(changeUrl.replace(/\/pull\/\d+\/?$/, ''));
    const repo = (ghprbRepo && ghprbRepo.includes('/')
        ? {
            value: {
                host: remote?.value.host ?? 'github.com',
                owner: ghprbRepo.slice(0, ghprbRepo.lastIndexOf('/')),
                name: ghprbRepo.slice(ghprbRepo.lastIndexOf('/') + 1),
            },
            source: 'ghprbGhRepository',
        }
        : undefined) ??
        remote ??
        (fromChangeUrl ? { value: fromChangeUrl, source: 'CHANGE_URL' } : undefined);
    const authorRepo = read.remote('ghprbAuthorRepoGitUrl');
    const changeFork = read.text('CHANGE_FORK')?.value;
    const isFork = prNumber
        ? changeFork !== undefined || (authorRepo && repo ? !(0,_common_pipeline_context_js__WEBPACK_IMPORTED_MODULE_2__/* .sameRepo */ .Zj)(authorRepo.value, repo.value) : undefined)
        : undefined;
    if (prNumber?.source === 'CHANGE_ID' && read.text('GIT_COMMIT') && !read.text('ghprbActualCommit')) {
        notes.push('head sha from GIT_COMMIT: with the branch source\'s "merge with the target" strategy that is a merge commit; set pr-sha if so');
    }
    return {
        ci: 'Jenkins',
        repo,
        prNumber,
        headSha: prNumber ? (read.sha('ghprbActualCommit') ?? read.sha('GIT_COMMIT')) : undefined,
        targetBranch: read.branch('CHANGE_TARGET') ?? read.branch('ghprbTargetBranch'),
        branch: read.branch('BRANCH_NAME') ?? read.branch('GIT_BRANCH', true) ?? read.branch('ghprbSourceBranch'),
        isFork,
        forkSource: changeFork ?? (authorRepo && `${authorRepo.value.owner}/${authorRepo.value.name}`),
        runId: read.text('BUILD_NUMBER')?.value,
        runUrl: read.text('BUILD_URL')?.value,
        trigger: prNumber ? 'change request' : 'branch',
        variables: {
            repo: 'GIT_URL',
            prNumber: 'CHANGE_ID (or ghprbPullId)',
            headSha: 'GIT_COMMIT',
            targetBranch: 'CHANGE_TARGET (or ghprbTargetBranch)',
        },
        notes,
    };
}
function jenkinsHost(options) {
    return (0,_common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__/* .pipelineHost */ .x)({ name: 'jenkins', dialect: _common_log_js__WEBPACK_IMPORTED_MODULE_0__/* .PLAIN_DIALECT */ .UW, facts: jenkinsFacts, publish: _common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__/* .filePublisher */ .V }, options);
}


/***/ })

};
