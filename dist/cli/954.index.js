export const id = 954;
export const ids = [954];
export const modules = {

/***/ 8480:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C: () => (/* binding */ readMergeQueueBranch)
/* harmony export */ });
// What an operation acts on, as every host resolves it from its own pipeline: the repository, the pull
// request, its head sha and target branch, and the run.
// The base branch may itself contain slashes; the pr-<N>-<sha> tail is what anchors the match.
const GITHUB_MERGE_GROUP_BRANCH = /^(?:refs\/heads\/)?gh-readonly-queue\/(.+)\/pr-(\d+)-[0-9a-f]+$/;
const TEST_RUN_BRANCH = /^(?:refs\/heads\/)?trunk-merge\/pr-(\d+)\/(.+)$/;
/** A merge-queue branch as every host sees it in its branch variable; undefined for any other branch. */
function readMergeQueueBranch(branch) {
    if (!branch)
        return undefined;
    const testRun = TEST_RUN_BRANCH.exec(branch);
    if (testRun)
        return { prNumber: Number(testRun[1]), testRunId: testRun[2], isTestRun: true };
    const group = GITHUB_MERGE_GROUP_BRANCH.exec(branch);
    if (group)
        return { prNumber: Number(group[2]), targetBranch: group[1], isTestRun: false };
    return undefined;
}


/***/ }),

/***/ 8814:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ appendedFile),
/* harmony export */   v: () => (/* binding */ jsonOutputsFile)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// Outputs and summaries written to files whose paths the user gives (--outputs-file, --summary-file,
// --dotenv-file): the way CircleCI, Jenkins, GitLab and a laptop hand them to later steps.


/** Refuses a path that exists and is not a regular file (a directory, a link, a device). */
async function checkWritable(path, flag) {
    const stat = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat)(path).catch((error) => {
        if (error.code === 'ENOENT')
            return undefined;
        throw error;
    });
    if (stat && !stat.isFile()) {
        throw new Error(`${flag} ${path} exists and is not a regular file; give a path to a file.`);
    }
}
/** One line for a file that could not be written: which flag, which path, why. */
function failure(flag, path, error) {
    const reason = error instanceof Error ? error.message : String(error);
    return new Error(reason.startsWith(flag) ? reason : `Could not write ${flag} ${path}: ${reason.replace(/\s+/g, ' ')}`);
}
/**
 * A JSON object of every output set so far, rewritten whole on each call (outputs may be set more than
 * once in a run, and a reader must never see half a file's worth).
 */
function jsonOutputsFile(path, cwd, flag = '--outputs-file') {
    const file = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(cwd, path);
    const outputs = {};
    return async (values) => {
        Object.assign(outputs, values);
        try {
            await checkWritable(file, flag);
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile)(file, `${JSON.stringify(outputs, null, 2)}\n`, 'utf8');
        }
        catch (error) {
            throw failure(flag, file, error);
        }
    };
}
/** A text file the run appends to (the markdown summary, a dotenv report). */
function appendedFile(path, cwd, flag) {
    const file = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(cwd, path);
    return {
        path: file,
        async append(text) {
            try {
                await checkWritable(file, flag);
                await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.appendFile)(file, text, 'utf8');
            }
            catch (error) {
                throw failure(flag, file, error);
            }
        },
        async replace(text) {
            try {
                await checkWritable(file, flag);
                await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile)(file, text, 'utf8');
            }
            catch (error) {
                throw failure(flag, file, error);
            }
        },
    };
}


/***/ }),

/***/ 9731:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Sb: () => (/* binding */ Secrets),
/* harmony export */   UW: () => (/* binding */ PLAIN_DIALECT),
/* harmony export */   VM: () => (/* binding */ streamLog)
/* harmony export */ });
/* unused harmony export withoutControlCharacters */
/* harmony import */ var _core_report_redact_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6405);

/** Secrets registered by Host.mask, hidden from everything the host writes afterwards. */
class Secrets {
    secrets = [];
    redact = (0,_core_report_redact_js__WEBPACK_IMPORTED_MODULE_0__/* .redactor */ .$p)([]);
    add(secret) {
        if (!secret || this.secrets.includes(secret))
            return;
        this.secrets.push(secret);
        this.redact = (0,_core_report_redact_js__WEBPACK_IMPORTED_MODULE_0__/* .redactor */ .$p)(this.secrets);
    }
    hide(text) {
        return this.redact(text);
    }
}
// ESC sequences (CSI, OSC and single-character ones), then any other control character but tab/newline.
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])?/g;
// eslint-disable-next-line no-control-regex
const OTHER_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/g;
/** Text as it may reach a terminal or a CI's log viewer: no escape sequences, no carriage returns. */
function withoutControlCharacters(text) {
    return text.replace(/\r\n/g, '\n').replace(TERMINAL_CONTROL, '').replace(OTHER_CONTROL, '');
}
/** A HostLog writing the dialect's lines to a stream. */
function streamLog(stream, dialect, secrets) {
    const clean = (text) => dialect.neutralise(withoutControlCharacters(secrets.hide(text)));
    const write = (text) => stream.write(text.endsWith('\n') ? text : `${text}\n`);
    const title = (annotation) => {
        if (!annotation?.title && !annotation?.file)
            return undefined;
        const where = annotation.file ? `${annotation.file}${annotation.line ? `:${annotation.line}` : ''}` : '';
        return clean([annotation.title, where].filter(Boolean).join(' ')).replace(/\n/g, ' ');
    };
    let groups = 0;
    return {
        info: (message) => write(clean(message)),
        warning: (message, annotation) => write(dialect.warning(clean(message), title(annotation))),
        error: (message, annotation) => write(dialect.error(clean(message), title(annotation))),
        notice: (message, annotation) => {
            const heading = title(annotation);
            write(heading ? `${heading}: ${clean(message)}` : clean(message));
        },
        async group(groupTitle, work) {
            const id = `merge_queue_${++groups}`;
            const shown = clean(groupTitle).replace(/\n/g, ' ');
            write(dialect.groupStart(shown, id));
            try {
                return await work();
            }
            finally {
                const end = dialect.groupEnd(shown, id);
                if (end)
                    write(end);
            }
        },
    };
}
/** The plain dialect: CIs without log syntax of their own (CircleCI, Jenkins, a terminal). */
const PLAIN_DIALECT = {
    neutralise: (text) => text,
    groupStart: (title) => `== ${title}`,
    groupEnd: () => '',
    warning: (message, title) => `Warning${title ? ` (${title})` : ''}: ${message}`,
    error: (message, title) => `Error${title ? ` (${title})` : ''}: ${message}`,
};


/***/ }),

/***/ 7481:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Kd: () => (/* binding */ pullRequestNumber),
/* harmony export */   Zj: () => (/* binding */ sameRepo),
/* harmony export */   gc: () => (/* binding */ variableReader),
/* harmony export */   yM: () => (/* binding */ resolvePipelineContext)
/* harmony export */ });
/* unused harmony exports isFullSha, branchName */
/* harmony import */ var _core_context_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8480);
/* harmony import */ var _core_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4296);
/* harmony import */ var _core_inputs_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9114);
/* harmony import */ var _github_actions_github_lookup_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2469);
/* harmony import */ var _remote_url_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6371);
// The context on every CI but GitHub Actions. Each host reads what its own variables say (PipelineFacts);
// this resolves them against the inputs and the override variables the service's own tools read
// (TRUNK_*): inputs win over the overrides, which win over the host. A value nobody gives is looked up
// through the GitHub API when a github-token is given, else the error names the variable that would
// have said it and the input that replaces it.





const OVERRIDES = {
    prNumber: 'TRUNK_PR_NUMBER',
    headSha: 'TRUNK_REPO_HEAD_SHA',
    branch: 'TRUNK_REPO_HEAD_BRANCH',
    repoUrl: 'TRUNK_REPO_URL',
    targetBranch: 'TRUNK_TARGET_BRANCH',
};
/** The values of the override variables every host honours, checked. */
function readOverrides(env) {
    const prText = env[OVERRIDES.prNumber]?.trim();
    const shaText = env[OVERRIDES.headSha]?.trim();
    const urlText = env[OVERRIDES.repoUrl]?.trim();
    const repo = (0,_remote_url_js__WEBPACK_IMPORTED_MODULE_3__/* .parseRemoteUrl */ .J)(urlText);
    if (urlText && !repo) {
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ContextError */ .a(`${OVERRIDES.repoUrl} ${(0,_core_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .quoted */ .TL)(urlText)} is not a repository URL; set it like https://github.com/my-org/my-repo.git, or set the repo input.`);
    }
    return {
        prNumber: prText ? pullRequestNumber(prText, OVERRIDES.prNumber) : undefined,
        headSha: shaText ? commitSha(shaText, OVERRIDES.headSha) : undefined,
        branch: env[OVERRIDES.branch]?.trim() || undefined,
        repo,
        targetBranch: branchName(env[OVERRIDES.targetBranch]),
    };
}
/** A PR number from a variable; anything else is an error naming the variable. */
function pullRequestNumber(text, variable) {
    const trimmed = text.trim().replace(/^#/, '');
    if (!/^[0-9]{1,10}$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 4294967295) {
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ContextError */ .a(`${variable} ${(0,_core_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .quoted */ .TL)(text)} is not a pull request number; fix it, or set the pr-number input.`);
    }
    return Number(trimmed);
}
function commitSha(text, variable) {
    if (!isFullSha(text)) {
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ContextError */ .a(`${variable} ${(0,_core_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .quoted */ .TL)(text)} is not a full commit sha; fix it, or set the pr-sha input.`);
    }
    return text.toLowerCase();
}
function isFullSha(text) {
    return !!text && /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(text);
}
/** `refs/heads/main`, `origin/main` as some CIs spell it, or `main` -> `main`; undefined when empty. */
function branchName(text, remotePrefix = false) {
    let branch = text?.trim().replace(/^refs\/heads\//, '');
    if (remotePrefix)
        branch = branch?.replace(/^origin\//, '');
    return branch || undefined;
}
function first(...candidates) {
    return candidates.find((candidate) => candidate !== undefined && candidate.value !== undefined);
}
const sourced = (value, source) => value === undefined ? undefined : { value, source };
/** The GitHub REST API root for a repository host: github.com's, or a GitHub Enterprise server's. */
function gitHubApiUrl(env, repoHost) {
    if (env.GITHUB_API_URL)
        return env.GITHUB_API_URL.replace(/\/+$/, '');
    return repoHost === 'github.com' ? 'https://api.github.com' : `https://${repoHost}/api/v3`;
}
async function resolvePipelineContext({ overrides, needs, githubToken }, facts, env) {
    const notes = [...(facts.notes ?? [])];
    const warnings = [];
    const trunk = readOverrides(env);
    const repo = resolveRepo(overrides, trunk.repo, facts, notes);
    const branch = first(sourced(trunk.branch, OVERRIDES.branch), facts.branch);
    const queueBranch = (0,_core_context_js__WEBPACK_IMPORTED_MODULE_4__/* .readMergeQueueBranch */ .C)(branch?.value);
    const fromBranch = branch && `the merge-queue branch in ${branch.source}`;
    const prNumber = first(sourced(overrides.prNumber, 'the pr-number input'), sourced(trunk.prNumber, OVERRIDES.prNumber), facts.prNumber, sourced(queueBranch?.prNumber, fromBranch ?? ''));
    if (prNumber)
        notes.push(`pr-number: ${prNumber.value} (from ${prNumber.source})`);
    else if (needs.pr || needs.headSha) {
        const why = facts.noPullRequest ?? `${facts.variables.prNumber} is not set`;
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ContextError */ .a(`No pull request to act on: ${why}; set the pr-number input.`);
    }
    // What the CI says about its build's PR is not true of another PR named by an input; a merge-queue
    // branch's build commit is the test merge, never the PR's head.
    const factsAreForThisPr = !queueBranch && prNumber !== undefined && facts.prNumber?.value === prNumber.value;
    let headSha = first(sourced(overrides.prSha, 'the pr-sha input'), sourced(trunk.headSha, OVERRIDES.headSha), factsAreForThisPr ? facts.headSha : undefined);
    let targetBranch = first(sourced(overrides.targetBranch, 'the target-branch input'), sourced(trunk.targetBranch, OVERRIDES.targetBranch), factsAreForThisPr ? facts.targetBranch : undefined, sourced(queueBranch?.targetBranch, fromBranch ?? ''));
    let pullRequest;
    let lookupProblem;
    const missing = (needs.headSha && !headSha) || (needs.targetBranch && !targetBranch);
    if (prNumber && missing) {
        if (!githubToken)
            lookupProblem = `and no github-token was given to look up PR #${prNumber.value}`;
        else {
            const apiUrl = gitHubApiUrl(env, repo.host);
            try {
                pullRequest = await (0,_github_actions_github_lookup_js__WEBPACK_IMPORTED_MODULE_2__/* .gitHubLookup */ .M5)(githubToken, apiUrl).pullRequest(repo.owner, repo.name, prNumber.value);
                const source = `PR #${prNumber.value} looked up through the GitHub API`;
                headSha ??= sourced(pullRequest.headSha, source);
                targetBranch ??= sourced(pullRequest.baseRef, source);
            }
            catch (error) {
                lookupProblem = `and the GitHub API could not tell: ${error.message}`;
            }
        }
    }
    if (headSha)
        notes.push(`head sha: ${headSha.value} (from ${headSha.source})`);
    else if (needs.headSha) {
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ContextError */ .a(`Cannot tell the head sha of PR #${prNumber?.value}: ${facts.variables.headSha} is not set ${lookupProblem ?? ''}; set the pr-sha input${githubToken ? '' : ' or pass github-token'}.`);
    }
    if (targetBranch)
        notes.push(`target branch: ${targetBranch.value} (from ${targetBranch.source})`);
    else if (facts.defaultBranch && (needs.targetBranch || !prNumber)) {
        targetBranch = facts.defaultBranch;
        const why = `the repository's default branch, from ${facts.defaultBranch.source}`;
        // A queue operation's branch defaults to the repository's; a PR's base branch that could not be
        // found is a guess the user should see.
        if (prNumber)
            warnings.push(`target branch: ${targetBranch.value} (${why}; set target-branch if that is wrong)`);
        else
            notes.push(`target branch: ${targetBranch.value} (${why})`);
    }
    else if (needs.targetBranch) {
        const about = prNumber ? ` of PR #${prNumber.value}` : '';
        const lookup = prNumber ? ` ${lookupProblem ?? ''}` : '';
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ContextError */ .a(`Cannot tell the target branch${about}: ${facts.variables.targetBranch} is not set${lookup}; set the target-branch input.`);
    }
    const isFork = (factsAreForThisPr ? facts.isFork : undefined) ?? pullRequest?.isFork ?? false;
    if (isFork) {
        const from = (factsAreForThisPr && facts.forkSource) || pullRequest?.headRepoFullName;
        notes.push(`fork: PR #${prNumber?.value} comes from ${from ?? 'another repository'}`);
    }
    const isMergeQueueTestRun = queueBranch?.isTestRun ?? false;
    if (isMergeQueueTestRun) {
        notes.push(`merge-queue test run: PR #${queueBranch?.prNumber}, test run id ${queueBranch?.testRunId} (from ${branch?.source})`);
    }
    return {
        repo,
        prNumber: prNumber?.value,
        headSha: headSha?.value,
        targetBranch: targetBranch?.value,
        isFork,
        isMergeQueueTestRun,
        testRunId: isMergeQueueTestRun ? queueBranch?.testRunId : undefined,
        runId: facts.runId || undefined,
        runUrl: facts.runUrl && /^https?:\/\//i.test(facts.runUrl) ? facts.runUrl : undefined,
        trigger: facts.trigger,
        notes: notes.map((note) => note.replace(/\s+/g, ' ').trim()),
        warnings,
    };
}
function resolveRepo(overrides, trunkRepo, facts, notes) {
    const fromUrl = sourced(trunkRepo, OVERRIDES.repoUrl);
    const chosen = first(sourced(overrides.repo, 'the repo input'), fromUrl, facts.repo);
    if (!chosen) {
        throw new _core_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ContextError */ .a(`Cannot tell the repository: ${facts.variables.repo} is not set; set the repo input (owner/name) or ${OVERRIDES.repoUrl}.`);
    }
    const host = first(sourced(overrides.repoHost, 'the repo-host input'), sourced(fromUrl?.value.host, OVERRIDES.repoUrl), sourced(facts.repo?.value.host, facts.repo?.source ?? '')) ?? { value: 'github.com', source: 'the default' };
    notes.push(`repo: ${host.value}/${chosen.value.owner}/${chosen.value.name} (from ${chosen.source}; host from ${host.source})`);
    return { host: host.value, owner: chosen.value.owner, name: chosen.value.name };
}
/** Readers of a CI's variables, each value tagged with the variable it came from. */
function variableReader(env, notes) {
    const text = (name) => {
        const value = env[name]?.trim();
        return value ? { value, source: name } : undefined;
    };
    return {
        text,
        /** A PR number; a value that is not one is an error naming the variable. */
        prNumber(name) {
            const found = text(name);
            return found && { value: pullRequestNumber(found.value, name), source: name };
        },
        /** A full commit sha; anything else ("HEAD", a short sha) is noted and ignored. */
        sha(name) {
            const found = text(name);
            if (!found)
                return undefined;
            if (isFullSha(found.value))
                return { value: found.value.toLowerCase(), source: name };
            notes.push(`${name} ${(0,_core_inputs_js__WEBPACK_IMPORTED_MODULE_1__/* .quoted */ .TL)(found.value)} is not a full commit sha; ignored`);
            return undefined;
        },
        branch(name, remotePrefix = false) {
            const value = branchName(env[name], remotePrefix);
            return value ? { value, source: name } : undefined;
        },
        /** The repository a remote URL names; a value that names none is noted and ignored. */
        remote(name) {
            const found = text(name);
            if (!found)
                return undefined;
            const repo = (0,_remote_url_js__WEBPACK_IMPORTED_MODULE_3__/* .parseRemoteUrl */ .J)(found.value);
            if (!repo)
                notes.push(`${name} does not name a repository (owner/name); ignored`);
            return repo && { value: repo, source: name };
        },
    };
}
/** The same repository, compared without regard to case (hosts and GitHub names are case-insensitive). */
function sameRepo(a, b) {
    if (!a || !b)
        return false;
    return `${a.owner}/${a.name}`.toLowerCase() === `${b.owner}/${b.name}`.toLowerCase();
}


/***/ }),

/***/ 1954:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   V: () => (/* binding */ filePublisher),
/* harmony export */   x: () => (/* binding */ pipelineHost)
/* harmony export */ });
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _files_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8814);
/* harmony import */ var _log_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(9731);
/* harmony import */ var _pipeline_context_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7481);
// What every host but GitHub Actions shares: inputs handed in by the entry point, secrets hidden from the
// log and the files, the context from the CI's facts, log lines in the CI's dialect. Each host adds how
// it reads its variables and where its outputs and summary go.




function pipelineHost(parts, options) {
    const secrets = new _log_js__WEBPACK_IMPORTED_MODULE_2__/* .Secrets */ .Sb();
    const stream = (0,_log_js__WEBPACK_IMPORTED_MODULE_2__/* .streamLog */ .VM)(options.logStream, parts.dialect, secrets);
    let warnings = 0;
    const log = {
        ...stream,
        warning: (message, annotation) => {
            warnings++;
            stream.warning(message, annotation);
        },
    };
    const publisher = parts.publish({ options, log, secrets, warningsLogged: () => warnings });
    return {
        name: parts.name,
        input: options.input,
        mask: (secret) => secrets.add(secret),
        resolveContext: (request) => (0,_pipeline_context_js__WEBPACK_IMPORTED_MODULE_3__/* .resolvePipelineContext */ .yM)(request, parts.facts(options.env), options.env),
        setOutputs: (outputs) => publisher.setOutputs(Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, secrets.hide(value)]))),
        writeSummary: (markdown) => publisher.writeSummary(secrets.hide(markdown)),
        finish: (exitCode) => publisher.finish(exitCode),
        log,
        tempDir: (0,node_os__WEBPACK_IMPORTED_MODULE_0__.tmpdir)(),
    };
}
/**
 * Outputs as a JSON object in --outputs-file and the summary appended to --summary-file (CircleCI,
 * Jenkins, generic). Without the flags they are not written, which the log says once.
 */
function filePublisher({ options, log }) {
    const outputs = options.files.outputs ? (0,_files_js__WEBPACK_IMPORTED_MODULE_1__/* .jsonOutputsFile */ .v)(options.files.outputs, options.cwd) : undefined;
    const summary = options.files.summary
        ? (0,_files_js__WEBPACK_IMPORTED_MODULE_1__/* .appendedFile */ .O)(options.files.summary, options.cwd, '--summary-file')
        : undefined;
    let toldNoOutputsFile = false;
    return {
        async setOutputs(values) {
            if (outputs)
                return outputs(values);
            if (!toldNoOutputsFile)
                log.info('Outputs are not written to a file: give --outputs-file <path>.');
            toldNoOutputsFile = true;
        },
        async writeSummary(markdown) {
            if (!summary)
                return;
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


/***/ }),

/***/ 6371:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   J: () => (/* binding */ parseRemoteUrl)
/* harmony export */ });
// git@github.com:owner/name.git (scp-like: no scheme, a colon before the path)
const SCP_LIKE = /^(?:[^@/\s]+@)?([a-z0-9.-]+):(?!\/)(.+)$/i;
/** The repository a remote URL names (ssh, scp-like or https; GitHub Enterprise hosts too), if any. */
function parseRemoteUrl(remote) {
    const given = remote?.trim();
    if (!given)
        return undefined;
    let host;
    let path;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given)) {
        if (!URL.canParse(given))
            return undefined;
        const url = new URL(given);
        if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(url.protocol))
            return undefined;
        // The ssh port is not part of the repository's address; a web server's port is.
        host = url.protocol.startsWith('http') ? url.host : url.hostname;
        path = decodeURIComponent(url.pathname);
    }
    else {
        const scp = SCP_LIKE.exec(given);
        if (!scp)
            return undefined;
        host = scp[1];
        path = scp[2];
    }
    const segments = path
        .replace(/\/+$/, '')
        .replace(/\.git$/, '')
        .split('/')
        .filter(Boolean);
    if (!host || segments.length < 2 || segments.some((s) => /\s/.test(s)))
        return undefined;
    const name = segments.pop();
    return { host: host.toLowerCase(), owner: segments.join('/'), name };
}


/***/ }),

/***/ 2469:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   M5: () => (/* binding */ gitHubLookup),
/* harmony export */   Qq: () => (/* binding */ text),
/* harmony export */   ZZ: () => (/* binding */ field),
/* harmony export */   cA: () => (/* binding */ readPullRequestFacts)
/* harmony export */ });
// What the context needs from GitHub beyond the event payload: a pull request's head, base and fork
// status, and a repository's default branch. Called only when the event does not carry them.
/**
 * Reads a pull request object. The webhook payload's `pull_request` and the REST API's pull request share
 * this shape, so the event and the lookup read it the same way.
 */
function readPullRequestFacts(pr) {
    const head = field(pr, 'head');
    const base = field(pr, 'base');
    const headRepo = field(head, 'repo');
    const headRepoFullName = text(field(headRepo, 'full_name'));
    const baseRepoFullName = text(field(field(base, 'repo'), 'full_name'));
    // A deleted head repository reads as null.
    const isFork = headRepo === null ||
        (headRepoFullName !== undefined &&
            baseRepoFullName !== undefined &&
            headRepoFullName.toLowerCase() !== baseRepoFullName.toLowerCase());
    return { headSha: text(field(head, 'sha')), baseRef: text(field(base, 'ref')), isFork, headRepoFullName };
}
const LOOKUP_TIMEOUT_MS = 30_000;
/** A lookup through the REST API at `apiUrl` (github.com or a GitHub Enterprise server's `/api/v3`). */
function gitHubLookup(token, apiUrl) {
    // Loaded on first use: most runs never ask the GitHub API, and its client is the bulk of the bundle.
    let client;
    const octokit = () => (client ??= Promise.all(/* import() */[__webpack_require__.e(119), __webpack_require__.e(157)]).then(__webpack_require__.bind(__webpack_require__, 157)).then(({ getOctokit }) => getOctokit(token, { baseUrl: apiUrl })));
    const request = () => ({ signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) });
    return {
        async pullRequest(owner, name, prNumber) {
            const path = `GET /repos/${owner}/${name}/pulls/${prNumber}`;
            const response = await explained(path, token, () => octokit().then((o) => o.rest.pulls.get({ owner, repo: name, pull_number: prNumber, request: request() })));
            return readPullRequestFacts(response.data);
        },
        async defaultBranch(owner, name) {
            const path = `GET /repos/${owner}/${name}`;
            const response = await explained(path, token, () => octokit().then((o) => o.rest.repos.get({ owner, repo: name, request: request() })));
            return text(response.data.default_branch);
        },
    };
}
/** Runs a request and turns any failure into one line naming the call and the likely cause. */
async function explained(call, token, send) {
    try {
        return await send();
    }
    catch (error) {
        const status = field(error, 'status');
        const reason = typeof status === 'number'
            ? `${call} answered ${status}${STATUS_HINTS[status] ?? ''}`
            : `${call} failed: ${error instanceof Error ? error.message : String(error)}`;
        throw new Error(token ? oneLine(reason).split(token).join('***') : oneLine(reason));
    }
}
const STATUS_HINTS = {
    401: ' (the github-token was refused)',
    403: ' (the github-token lacks read access to pull requests and contents, or a rate limit was hit)',
    404: ' (no such pull request or repository, or the github-token cannot see it)',
};
function oneLine(message) {
    return message.replace(/\s+/g, ' ').trim();
}
/** `value[key]` when `value` is an object; payloads are untyped JSON. */
function field(value, key) {
    return typeof value === 'object' && value !== null ? value[key] : undefined;
}
function text(value) {
    return typeof value === 'string' && value !== '' ? value : undefined;
}


/***/ })

};
