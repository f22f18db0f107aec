export const id = 174;
export const ids = [174];
export const modules = {

/***/ 4174:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   GENERIC_FACTS: () => (/* binding */ GENERIC_FACTS),
/* harmony export */   genericHost: () => (/* binding */ genericHost)
/* harmony export */ });
/* harmony import */ var _common_log_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(9731);
/* harmony import */ var _common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1954);
// Any other CI, or a laptop: the context comes from inputs and the override variables the service's own
// tools read (TRUNK_PR_NUMBER, TRUNK_REPO_HEAD_SHA, TRUNK_REPO_HEAD_BRANCH, TRUNK_REPO_URL,
// TRUNK_TARGET_BRANCH; applied on every host), outputs and the summary go to the files the flags name.


const GENERIC_FACTS = {
    ci: 'this pipeline',
    trigger: 'generic',
    variables: {
        repo: 'TRUNK_REPO_URL',
        prNumber: 'TRUNK_PR_NUMBER',
        headSha: 'TRUNK_REPO_HEAD_SHA',
        targetBranch: 'TRUNK_TARGET_BRANCH',
    },
};
function genericHost(options) {
    return (0,_common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__/* .pipelineHost */ .x)({ name: 'generic', dialect: _common_log_js__WEBPACK_IMPORTED_MODULE_0__/* .PLAIN_DIALECT */ .UW, facts: () => GENERIC_FACTS, publish: _common_pipeline_host_js__WEBPACK_IMPORTED_MODULE_1__/* .filePublisher */ .V }, options);
}


/***/ })

};
