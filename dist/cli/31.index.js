export const id = 31;
export const ids = [31];
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


/***/ }),

/***/ 9031:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  githubActionsHost: () => (/* binding */ githubActionsHost)
});

// UNUSED EXPORTS: proxyOf

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 14 modules
var core = __webpack_require__(6421);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: ./src/core/report/control-syntax.ts
var control_syntax = __webpack_require__(8451);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: ./src/core/context.ts
var context = __webpack_require__(8480);
// EXTERNAL MODULE: ./src/core/errors.ts
var errors = __webpack_require__(4296);
// EXTERNAL MODULE: ./src/hosts/github-actions/github-lookup.ts
var github_lookup = __webpack_require__(2469);
;// CONCATENATED MODULE: ./src/hosts/github-actions/context.ts
// The GitHub Actions context: which repository, pull request, head sha and target branch an operation acts
// on. Inputs win over the event; the GitHub API is asked only for what the operation needs and the event
// does not carry.




async function resolveContext({ overrides, needs, githubToken }, env) {
    const token = githubToken || undefined;
    const notes = [];
    const warnings = [];
    const event = readEvent(env, notes);
    const serverUrl = env.GITHUB_SERVER_URL || 'https://github.com';
    const eventRepo = repoOfEvent(env, event.payload);
    const repo = resolveRepo(overrides, eventRepo, serverUrl, notes);
    const facts = readEventFacts(event.name, event.payload, env.GITHUB_REF);
    const eventIsForRepo = eventRepo !== undefined && sameRepo(eventRepo.fullName, repo);
    const fromEvent = `from the ${event.name} event`;
    const prNumber = overrides.prNumber ?? (eventIsForRepo ? facts.prNumber : undefined);
    if (prNumber !== undefined) {
        notes.push(`pr-number: ${prNumber} (${overrides.prNumber !== undefined ? 'from the pr-number input' : fromEvent})`);
    }
    else if (needs.pr || needs.headSha) {
        const why = eventIsForRepo
            ? (facts.noPullRequest ?? 'carries no pull request')
            : `is for ${eventRepo?.fullName ?? 'no repository'}, not ${repo.owner}/${repo.name}`;
        throw new errors/* ContextError */.a(`No pull request to act on: the ${event.name} event ${why}; set the pr-number input.`);
    }
    // The event's facts describe its own PR; a PR named by input may be another one.
    const eventPr = prNumber !== undefined && eventIsForRepo && prNumber === facts.prNumber ? facts : undefined;
    let headSha = firstKnown([overrides.prSha, 'from the pr-sha input'], [eventPr?.headSha, fromEvent]);
    let targetBranch = firstKnown([overrides.targetBranch, 'from the target-branch input'], [eventPr?.targetBranch, fromEvent]);
    let pullRequest = eventPr?.pullRequest;
    let lookupProblem;
    const lookup = token ? (0,github_lookup/* gitHubLookup */.M5)(token, apiUrl(env, serverUrl)) : undefined;
    const missing = (needs.headSha && !headSha) || (needs.targetBranch && !targetBranch);
    if (prNumber !== undefined && missing) {
        if (!lookup) {
            lookupProblem = `no github-token to look up PR #${prNumber}`;
        }
        else {
            try {
                pullRequest = await lookup.pullRequest(repo.owner, repo.name, prNumber);
                const source = `PR #${prNumber} looked up through the GitHub API`;
                headSha ??= firstKnown([pullRequest.headSha, source]);
                targetBranch ??= firstKnown([pullRequest.baseRef, source]);
            }
            catch (error) {
                lookupProblem = `could not look up PR #${prNumber}: ${error.message}`;
                notes.push(`GitHub API: ${lookupProblem}`);
            }
        }
    }
    if (headSha)
        notes.push(`head sha: ${headSha.value} (${headSha.source})`);
    else if (needs.headSha) {
        const why = lookupProblem ?? `the ${event.name} event does not say it`;
        const alternative = lookup ? '' : ' or pass github-token';
        throw new errors/* ContextError */.a(`Cannot tell the head sha of PR #${prNumber} (${why}); set the pr-sha input${alternative}.`);
    }
    if (!targetBranch && needs.targetBranch) {
        targetBranch = await defaultBranch(repo, eventIsForRepo ? event.payload : undefined, prNumber, lookup, {
            eventName: event.name,
            lookupProblem,
            // A PR's base branch that could not be found is a guess; a queue operation's default is not.
            notes: prNumber === undefined ? notes : warnings,
        });
    }
    else if (targetBranch)
        notes.push(`target branch: ${targetBranch.value} (${targetBranch.source})`);
    if (pullRequest?.isFork) {
        const head = pullRequest.headRepoFullName;
        notes.push(`fork: PR #${prNumber} comes from ${head ? `${head}, not ${repo.owner}/${repo.name}` : 'a repository that is gone'}`);
    }
    if (facts.isMergeQueueTestRun) {
        notes.push(`merge-queue test run: PR #${facts.prNumber}, test run id ${facts.testRunId} (from the branch name)`);
    }
    return {
        repo,
        prNumber,
        headSha: headSha?.value,
        targetBranch: targetBranch?.value,
        isFork: pullRequest?.isFork ?? false,
        isMergeQueueTestRun: facts.isMergeQueueTestRun,
        testRunId: facts.testRunId,
        runId: env.GITHUB_RUN_ID || undefined,
        runUrl: runUrl(env, serverUrl),
        trigger: event.name,
        notes,
        warnings,
    };
}
function firstKnown(...candidates) {
    const found = candidates.find(([value]) => value !== undefined && value !== '');
    return found ? { value: found[0], source: found[1] } : undefined;
}
/** The target branch when neither inputs, the event nor the PR name one: the repository's default. */
async function defaultBranch(repo, payload, prNumber, lookup, about) {
    let why = about.lookupProblem ?? `the ${about.eventName} event names no target branch`;
    let branch = (0,github_lookup/* text */.Qq)((0,github_lookup/* field */.ZZ)((0,github_lookup/* field */.ZZ)(payload, 'repository'), 'default_branch'));
    if (!branch && lookup && prNumber === undefined) {
        try {
            branch = await lookup.defaultBranch(repo.owner, repo.name);
        }
        catch (error) {
            why = `${why}, and ${error.message}`;
        }
    }
    if (!branch) {
        throw new errors/* ContextError */.a(`Cannot tell the target branch (${why}); set the target-branch input.`);
    }
    about.notes.push(`target branch: ${branch} (the repository's default branch, because ${why}; set target-branch if that is wrong)`);
    return { value: branch, source: "the repository's default branch" };
}
// ---------------------------------------------------------------------------------------------------
// The event
function readEvent(env, notes) {
    const name = env.GITHUB_EVENT_NAME || 'unknown';
    const path = env.GITHUB_EVENT_PATH;
    if (!path)
        return { name, payload: {} };
    try {
        return { name, payload: JSON.parse((0,external_node_fs_.readFileSync)(path, 'utf8')) };
    }
    catch (error) {
        notes.push(`event: could not read GITHUB_EVENT_PATH ${path} (${error.message}); using inputs only`);
        return { name, payload: {} };
    }
}
function readEventFacts(eventName, payload, envRef) {
    if (eventName === 'merge_group') {
        const group = (0,github_lookup/* field */.ZZ)(payload, 'merge_group');
        const headRef = (0,github_lookup/* text */.Qq)((0,github_lookup/* field */.ZZ)(group, 'head_ref')) ?? '';
        const branch = (0,context/* readMergeQueueBranch */.C)(headRef);
        if (!branch || branch.isTestRun) {
            return {
                isMergeQueueTestRun: false,
                noPullRequest: `has head_ref '${headRef}', which names no pull request (gh-readonly-queue/<base>/pr-<N>-<sha>)`,
            };
        }
        return {
            prNumber: branch.prNumber,
            headSha: (0,github_lookup/* text */.Qq)((0,github_lookup/* field */.ZZ)(group, 'head_sha')),
            targetBranch: branchName((0,github_lookup/* text */.Qq)((0,github_lookup/* field */.ZZ)(group, 'base_ref'))) ?? branch.targetBranch,
            isMergeQueueTestRun: false,
        };
    }
    if (eventName === 'issue_comment') {
        const issue = (0,github_lookup/* field */.ZZ)(payload, 'issue');
        const issueNumber = positiveInteger((0,github_lookup/* field */.ZZ)(issue, 'number'));
        if ((0,github_lookup/* field */.ZZ)(issue, 'pull_request') == null) {
            return {
                isMergeQueueTestRun: false,
                noPullRequest: `is on issue #${issueNumber}, which is not a pull request`,
            };
        }
        return { prNumber: issueNumber, isMergeQueueTestRun: false };
    }
    if (eventName === 'push') {
        const ref = (0,github_lookup/* text */.Qq)((0,github_lookup/* field */.ZZ)(payload, 'ref')) ?? envRef ?? '';
        const branch = (0,context/* readMergeQueueBranch */.C)(ref);
        if (!branch?.isTestRun) {
            return {
                isMergeQueueTestRun: false,
                noPullRequest: `is to ${ref}, not to a merge-queue test branch (trunk-merge/pr-<N>/<id>)`,
            };
        }
        return { prNumber: branch.prNumber, isMergeQueueTestRun: true, testRunId: branch.testRunId };
    }
    // pull_request, pull_request_target and the review events carry the pull request itself.
    const pr = (0,github_lookup/* field */.ZZ)(payload, 'pull_request');
    if (typeof pr === 'object' && pr !== null) {
        const pullRequest = (0,github_lookup/* readPullRequestFacts */.cA)(pr);
        return {
            prNumber: positiveInteger((0,github_lookup/* field */.ZZ)(pr, 'number')),
            headSha: pullRequest.headSha,
            targetBranch: pullRequest.baseRef,
            pullRequest,
            isMergeQueueTestRun: false,
        };
    }
    return { isMergeQueueTestRun: false, noPullRequest: 'carries no pull request' };
}
function branchName(ref) {
    return ref?.replace(/^refs\/heads\//, '') || undefined;
}
function positiveInteger(value) {
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
function repoOfEvent(env, payload) {
    if (env.GITHUB_REPOSITORY) {
        const split = splitFullName(env.GITHUB_REPOSITORY);
        if (!split) {
            throw new errors/* ContextError */.a(`GITHUB_REPOSITORY '${env.GITHUB_REPOSITORY}' is not owner/name; set the repo input (owner/name).`);
        }
        return { ...split, fullName: env.GITHUB_REPOSITORY, source: 'from GITHUB_REPOSITORY' };
    }
    const fullName = (0,github_lookup/* text */.Qq)((0,github_lookup/* field */.ZZ)((0,github_lookup/* field */.ZZ)(payload, 'repository'), 'full_name'));
    const split = fullName ? splitFullName(fullName) : undefined;
    return split && fullName ? { ...split, fullName, source: 'from the event payload' } : undefined;
}
/** `group/sub/name` -> owner `group/sub`, name `name`: only the last segment is the name. */
function splitFullName(fullName) {
    const slash = fullName.lastIndexOf('/');
    const owner = fullName.slice(0, slash);
    const name = fullName.slice(slash + 1);
    return slash > 0 && name ? { owner, name } : undefined;
}
function resolveRepo(overrides, eventRepo, serverUrl, notes) {
    const host = overrides.repoHost ?? hostOf(serverUrl);
    const hostSource = overrides.repoHost ? 'the repo-host input' : 'GITHUB_SERVER_URL';
    const chosen = overrides.repo ? { ...overrides.repo, source: 'from the repo input' } : eventRepo;
    if (!chosen) {
        throw new errors/* ContextError */.a('Cannot tell the repository: GITHUB_REPOSITORY is not set and the event names none; set the repo input (owner/name).');
    }
    notes.push(`repo: ${host}/${chosen.owner}/${chosen.name} (${chosen.source}; host from ${hostSource})`);
    return { host, owner: chosen.owner, name: chosen.name };
}
function hostOf(serverUrl) {
    const host = URL.canParse(serverUrl) ? new URL(serverUrl).hostname : '';
    if (!host)
        throw new errors/* ContextError */.a(`GITHUB_SERVER_URL '${serverUrl}' is not a URL; set the repo-host input.`);
    return host;
}
/** The REST API root: GITHUB_API_URL, else github.com's API or a GitHub Enterprise server's `/api/v3`. */
function apiUrl(env, serverUrl) {
    if (env.GITHUB_API_URL)
        return env.GITHUB_API_URL.replace(/\/+$/, '');
    const server = new URL(serverUrl);
    return server.hostname === 'github.com' ? 'https://api.github.com' : `${server.origin}/api/v3`;
}
function sameRepo(fullName, repo) {
    return fullName.toLowerCase() === `${repo.owner}/${repo.name}`.toLowerCase();
}
function runUrl(env, serverUrl) {
    if (!env.GITHUB_RUN_ID || !env.GITHUB_REPOSITORY)
        return undefined;
    return `${serverUrl.replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
}

;// CONCATENATED MODULE: ./src/hosts/github-actions/host.ts
// The GitHub Actions host: inputs from INPUT_* variables, outputs and the job summary in the files the
// runner names, log lines as workflow commands. Its environment is given, never read from process.env.






function githubActionsHost(env) {
    const log = {
        info: (message) => core/* info */.pq((0,control_syntax/* neutraliseGitHubCommands */.Wb)(message)),
        warning: (message, annotation) => core/* warning */.$e((0,control_syntax/* neutraliseGitHubCommands */.Wb)(message), annotationProperties(annotation)),
        error: (message, annotation) => core/* error */.z3((0,control_syntax/* neutraliseGitHubCommands */.Wb)(message), annotationProperties(annotation)),
        notice: (message, annotation) => core/* notice */.lm((0,control_syntax/* neutraliseGitHubCommands */.Wb)(message), annotationProperties(annotation)),
        async group(title, work) {
            return core/* group */.Os((0,control_syntax/* neutraliseGitHubCommands */.Wb)(title).replace(/[\r\n]+/g, ' '), work);
        },
    };
    return {
        name: 'github-actions',
        input: (name) => env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '',
        mask: (secret) => core/* setSecret */.Pq(secret),
        resolveContext: (request) => resolveContext(request, env),
        async setOutputs(outputs) {
            if (!env.GITHUB_OUTPUT) {
                log.warning('Outputs were not set: GITHUB_OUTPUT is not set, so this is not a runner step.');
                return;
            }
            const text = Object.entries(outputs).map(([name, value]) => outputCommand(name, value));
            await (0,promises_.appendFile)(env.GITHUB_OUTPUT, text.join(''), 'utf8');
        },
        async writeSummary(markdown) {
            try {
                if (!env.GITHUB_STEP_SUMMARY)
                    throw new Error('GITHUB_STEP_SUMMARY is not set');
                await (0,promises_.appendFile)(env.GITHUB_STEP_SUMMARY, `${markdown}\n`, 'utf8');
            }
            catch (error) {
                log.warning(`The job summary was not written: ${error.message}`);
            }
        },
        log,
        tempDir: env.RUNNER_TEMP || (0,external_node_os_.tmpdir)(),
        proxy: proxyOf(env),
    };
}
/** The runner places an annotation on a file and line when given them (`file` relative to the checkout). */
function annotationProperties(annotation = {}) {
    const { title, file, line } = annotation;
    return {
        ...(title !== undefined && { title }),
        ...(file && { file }),
        ...(file && line !== undefined && line >= 1 && { startLine: line }),
    };
}
/** One output in the runner's file format, with a delimiter that cannot occur in the value. */
function outputCommand(name, value) {
    let delimiter = `ghadelimiter_${(0,external_node_crypto_.randomUUID)()}`;
    while (value.includes(delimiter))
        delimiter = `ghadelimiter_${(0,external_node_crypto_.randomUUID)()}`;
    return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}
/** The runner's proxy variables (either case, as curl and Node read them). */
function proxyOf(env) {
    const pick = (name) => env[name] || env[name.toLowerCase()] || undefined;
    return { HTTPS_PROXY: pick('HTTPS_PROXY'), HTTP_PROXY: pick('HTTP_PROXY'), NO_PROXY: pick('NO_PROXY') };
}


/***/ })

};
