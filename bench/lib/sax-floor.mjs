// The floor of the check-test-results benchmark: sax alone reading the same files (lib/sax-parse.mjs).
// Usage: node bench/lib/sax-floor.mjs <reports directory>
import { parseReports } from './sax-parse.mjs';

await parseReports(process.argv[2]);
