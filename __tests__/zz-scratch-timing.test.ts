import { it } from '@jest/globals';
import { readFileSync } from 'node:fs';
it('times', () => {
  const b = readFileSync('/tmp/itproto/j.json');
  const u = new Uint8Array(b.length); u.set(b);
  for (const [name, buf] of [['buffer', b], ['uint8', u]] as const) {
    let t = performance.now(); let s = 0;
    for (let i = 0; i < buf.length; i++) s += buf[i] as number;
    console.log(name, 'loop', performance.now() - t, s);
    t = performance.now(); s = 0;
    for (let i = 0; i < 200000; i++) s += buf.indexOf(10, i * 100) ;
    console.log(name, 'indexOf', performance.now() - t);
  }
  let t = performance.now(); let s = 0;
  for (let i = 0; i < 300000; i++) s += b.toString('utf8', i * 60, i * 60 + 50).length;
  console.log('toString', performance.now() - t);
  t = performance.now();
  for (let i = 0; i < 300000; i++) s += b.copy(u, i*60, i * 60, i * 60 + 50);
  console.log('copy', performance.now() - t);
});
