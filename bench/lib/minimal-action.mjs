// The smallest action of this kind, built with ncc like ours: the bundle floor (bench/bundle.ts) and a
// start-up floor (bench/startup.ts). It reads its inputs, sends one POST with the toolkit's HTTP client
// and sets an output: what any action that calls an HTTP API with @actions/core and
// @actions/http-client must ship and do. A status other than 200 fails it.
import * as core from '@actions/core';
import { HttpClient } from '@actions/http-client';

const client = new HttpClient('minimal-action');
const response = await client.post(
  `${core.getInput('api-url')}/getSubmittedPullRequest`,
  core.getInput('body'),
  { 'x-api-token': core.getInput('api-token'), 'content-type': 'application/json' },
);
const body = await response.readBody();
if (response.message.statusCode === 200) core.setOutput('response', body);
else core.setFailed(`answered ${response.message.statusCode}: ${body.slice(0, 200)}`);
