import { generateFlakyTests } from '../src/emulator/flaky/generate.ts';
import { FlakyTestStore } from '../src/emulator/flaky/store.ts';
import { readTest, byImpact, testTableRow, TEST_TABLE_HEADERS } from '../src/operations/flaky-tests/tests.ts';
import { Markdown } from '../src/report/markdown.ts';
const REPO={host:'github.com',owner:'acme',name:'storefront'};
const store = new FlakyTestStore();
let t=performance.now();
store.seed({repositories:[{repo:REPO, org_url_slug:'acme', generate:{flaky:5000,broken:5000,healthy:2000,seed:1}}]});
console.log('seed', performance.now()-t);
const raws:any[]=[];
for (const status of ['FLAKY','BROKEN'] as const){ let token=''; do { t=performance.now(); const r=store.listUnhealthyTests({repo:REPO, org_url_slug:'acme', status, page_query:{page_size:50,page_token:token}}); const s=JSON.stringify(r); if(token==='')console.log('page', performance.now()-t, s.length); raws.push(...JSON.parse(s).tests); token=r.page.next_page_token;} while(token); }
for (let i=0;i<3;i++){
t=performance.now(); const views=raws.map(r=>({raw:r, view:readTest(r)})); views.sort((a,b)=>byImpact(a.view,b.view)); console.log('read+sort', performance.now()-t);
t=performance.now(); const j=JSON.stringify({tests:views.map(v=>v.raw)},null,2); console.log('stringify2', performance.now()-t, j.length);
t=performance.now(); const j2=JSON.stringify({tests:views.map(v=>v.raw)}); console.log('stringify', performance.now()-t, j2.length);
t=performance.now(); const m=new Markdown().table(TEST_TABLE_HEADERS, views.map(v=>testTableRow(v.view)), 'x', 200).toString(); console.log('summary all rows', performance.now()-t, m.length);
t=performance.now(); const m2=new Markdown().table(TEST_TABLE_HEADERS, views.slice(0,201).map(v=>testTableRow(v.view)), 'x', 200).toString(); console.log('summary 201 rows', performance.now()-t, m2.length);
}
