import { launchEmulator, postJson } from './lib/servers.ts';
import { runAction } from '../__tests__/helpers/action-runner.ts';
import { example } from '../__tests__/helpers/webhook-examples.ts';
const TOKEN='t'; const REPO={host:'github.com',owner:'acme',name:'storefront'};
const em = await launchEmulator(TOKEN);
await postJson(`${new URL(em.url).origin}/_emulator/flaky-tests`, TOKEN, { latency_ms: Number(process.argv[2] ?? 20), repositories:[{repo:REPO, org_url_slug:'acme', generate:{flaky:5000,broken:5000,healthy:2000,seed:1}}]});
for (let i=0;i<4;i++){
  const t0=performance.now();
  const r = await runAction({eventName:'workflow_dispatch', payload: example('workflow_dispatch'), env:{GITHUB_REPOSITORY:'acme/storefront'}, inputs:{operation:'list-unhealthy-tests','api-url':em.url,'api-token':TOKEN,'org-url-slug':'acme','page-size':'50'}});
  console.log('action', performance.now()-t0, r.outputs['unhealthy-count'], r.summary.length);
}
await em.stop();
