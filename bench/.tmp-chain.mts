import { launchEmulator, postJson } from '/work/main/bench/lib/servers.ts';
import { ApiClient } from '/work/main/src/api/client.ts';
const TOKEN='t'; const REPO={host:'github.com',owner:'acme',name:'storefront'};
const em = await launchEmulator(TOKEN);
await postJson(`${new URL(em.url).origin}/_emulator/flaky-tests`, TOKEN, { latency_ms: Number(process.argv[2] ?? 20), repositories:[{repo:REPO, org_url_slug:'acme', generate:{flaky:5000,broken:5000,healthy:2000,seed:1}}]});
async function chain(fetchPage: (t: string)=>Promise<any>) {
  let token=''; let n=0; const t0=performance.now();
  do { const body = await fetchPage(token); token = body.page.next_page_token; n++; } while(token);
  return [n, performance.now()-t0];
}
const body = (status: string, token: string) => ({repo:REPO, org_url_slug:'acme', status, page_query:{page_size:50, page_token: token}});
for (let i=0;i<3;i++){
  console.log('fetch', await chain((t)=>postJson(`${em.url}/flaky-tests/list-unhealthy-tests`, TOKEN, body('FLAKY', t))));
  const c = new ApiClient({baseUrl: em.url, token: TOKEN, deadlineMs: 60000});
  console.log('client', await chain(async (t)=> (await c.listUnhealthyTests(body('FLAKY', t) as any)).json));
  console.log('client x2', await Promise.all(['FLAKY','BROKEN'].map(s=>chain(async (t)=> (await c.listUnhealthyTests(body(s, t) as any)).json))));
}
await em.stop();
