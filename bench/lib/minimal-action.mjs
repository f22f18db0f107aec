// The bundle floor: the smallest action of this kind, built with ncc like ours. It reads its inputs,
// sends one POST with the toolkit's HTTP client and sets an output: what any action that calls an
// HTTP API with @actions/core and @actions/http-client must ship.
import * as core from '@actions/core';
import { HttpClient } from '@actions/http-client';

const client = new HttpClient('minimal-action');
const response = await client.post(
  `${core.getInput('api-url')}/getSubmittedPullRequest`,
  core.getInput('body'),
  { 'x-api-token': core.getInput('api-token'), 'content-type': 'application/json' },
);
core.setOutput('response', await response.readBody());
