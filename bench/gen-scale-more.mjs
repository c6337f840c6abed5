#!/usr/bin/env node
// The scale axis between and beyond gen-scale.mjs's two sizes, for the growth curve of
// docs/performance.md ("The scale axis": past 1M).
//
// Usage:  node bench/gen-scale-more.mjs [--authors N] <gen-scale.mjs> <output-dir> [SIZE...]
//   SIZE: 100k, 200k, 500k, 1m, 2m, 4m (default: 200k 500k 2m 4m)
//   --authors N: N distinct authors at every size instead of 1 % of the todos (N <= 40000): the
//   same file names, so that `dataclient-bench --scale` times a series with the author count
//   held (docs/performance.md, "The scale axis").
//
// Runs the shared generator itself (../shared/bench-data/gen-scale.mjs), with these changes made
// to a copy of its text, so that every file follows its rules (the same PRNG, author pool
// function and todo shape; 1 % as many distinct authors as todos; todo ids 1..N):
//   - its table of sizes gains 200k, 500k, 2m and 4m (seeds 200001, 500001, ...), and the
//     author pool grows to the 40 000 authors of 4m (author i is a pure function of i);
//   - with --authors, the author count of every size is N;
//   - the file is written in pieces of 50 000 todos: one JSON string of 4M todos (1 GB) is past
//     V8's longest string.
// 100k and 1m come out byte-identical to the generator's own (checked when this was written).
// A change to the generator's text that these edits no longer find stops with an error rather
// than writing other files.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
let authors = 0;
if (args[0] === '--authors') {
  authors = Number(args[1]);
  args.splice(0, 2);
  if (!Number.isInteger(authors) || authors < 1 || authors > 40000) {
    console.error('gen-scale-more: --authors takes a whole number from 1 to 40000');
    process.exit(2);
  }
}
const [generator, outDir, ...sizes] = args;
if (!generator || !outDir) {
  console.error('usage: node gen-scale-more.mjs [--authors N] <gen-scale.mjs> <output-dir> [SIZE...]');
  process.exit(2);
}

const edits = [
  [
    "import { mkdirSync, writeFileSync } from 'node:fs';",
    "import { mkdirSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';",
  ],
  [
    "const spec = { '100k': [100000, 1000, 100001], '1m': [1000000, 10000, 1000001] };",
    "const spec = { '100k': [100000, 1000, 100001], '1m': [1000000, 10000, 1000001], " +
      "'200k': [200000, 2000, 200001], '500k': [500000, 5000, 500001], " +
      "'2m': [2000000, 20000, 2000001], '4m': [4000000, 40000, 4000001] };",
  ],
  ['Array.from({ length: 10000 }', 'Array.from({ length: 40000 }'],
  [
    'const [count, nAuthors, seed] = spec[size];',
    `const [count, nRule, seed] = spec[size]; const nAuthors = ${authors} || nRule;`,
  ],
  [
    "    const text = JSON.stringify(todos) + '\\n';\n" +
      "    writeFileSync(join(dir, `todos-${size}.json`), text);\n" +
      "    const sha = createHash('sha256').update(text).digest('hex');\n" +
      "    console.log(`todos-${size}.json ${Buffer.byteLength(text)} bytes, ${count} todos, ${nAuthors} authors, sha256 ${sha}`);\n",
    '    const fd = openSync(join(dir, `todos-${size}.json`), "w");\n' +
      '    const sha = createHash("sha256");\n' +
      '    for (let i = 0; i < count; i += 50000) {\n' +
      '      const last = i + 50000 >= count;\n' +
      '      const part = JSON.stringify(todos.slice(i, i + 50000));\n' +
      '      const text = part.slice(i === 0 ? 0 : 1, last ? part.length : part.length - 1) + (last ? "\\n" : ",");\n' +
      '      writeSync(fd, text);\n' +
      '      sha.update(text);\n' +
      '    }\n' +
      '    closeSync(fd);\n' +
      '    console.log(`todos-${size}.json ${count} todos, ${nAuthors} authors, sha256 ${sha.digest("hex")}`);\n',
  ],
];

let text = readFileSync(resolve(generator), 'utf8');
for (const [from, to] of edits) {
  if (!text.includes(from)) {
    console.error(`gen-scale-more: ${generator} no longer holds\n  ${from.split('\n')[0]}\n` +
                  'so its rules may have changed: update the edits in this script to match.');
    process.exit(1);
  }
  text = text.replace(from, to);
}
const scratch = mkdtempSync(join(tmpdir(), 'gen-scale-more-'));
try {
  const copy = join(scratch, 'gen-scale.mjs');
  writeFileSync(copy, text);
  process.argv = [process.argv[0], copy, outDir, ...(sizes.length ? sizes : ['200k', '500k', '2m', '4m'])];
  await import(pathToFileURL(copy).href);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
