// Looks for secrets in another process: its environment (/proc/PID/environ) and every readable region of
// its memory (/proc/PID/maps, /proc/PID/mem). Run as a command by the key-reach test, playing a hostile
// command that hunts for the key its parent holds.
//
//   node processMemoryScan.mjs PID SPEC.json
//
// SPEC.json: { "needles": ["<hex>", ...], "watch": [pid, ...] }. The needles are hex in the file (never on
// a command line or in an environment, where the scanned process could hold them itself); each is searched
// as its bytes and as UTF-16LE. `watch`: pids whose visibility (/proc/PID exists) is reported. Prints one
// JSON line with counts only, never a secret.
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';

const [pidArg, specFile] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specFile, 'utf8'));
const needles = spec.needles.flatMap((hex) => {
  const bytes = Buffer.from(hex, 'hex');
  return [bytes, Buffer.from(bytes.toString('latin1'), 'utf16le')];
});
const longest = Math.max(...needles.map((n) => n.length));

function hitsIn(buffer) {
  let hits = 0;
  for (const needle of needles) for (let at = buffer.indexOf(needle); at !== -1; at = buffer.indexOf(needle, at + 1)) hits++;
  return hits;
}

function scanEnviron(pid) {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`);
    return { read: true, bytes: environ.length, hits: hitsIn(environ) };
  } catch (error) {
    return { read: false, bytes: 0, hits: 0, error: error.code ?? String(error) };
  }
}

function scanMemory(pid) {
  let maps;
  let fd;
  try {
    maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
    fd = openSync(`/proc/${pid}/mem`, 'r');
  } catch (error) {
    return { regions: 0, bytes: 0, hits: 0, error: error.code ?? String(error) };
  }
  const chunk = Buffer.alloc(4 * 1024 * 1024);
  let regions = 0;
  let bytes = 0;
  let hits = 0;
  for (const line of maps.split('\n')) {
    const match = /^([0-9a-f]+)-([0-9a-f]+) (\S+)/.exec(line);
    if (!match || match[3][0] !== 'r') continue;
    const start = Number.parseInt(match[1], 16);
    const end = Number.parseInt(match[2], 16);
    regions++;
    // Consecutive chunks overlap by the longest needle less one byte, so a needle across two is still found (one
    // inside the overlap may count twice: only none or some matters).
    for (let at = start; at < end;) {
      const length = Math.min(chunk.length, end - at);
      let read;
      try {
        read = readSync(fd, chunk, 0, length, at);
      } catch {
        break; // [vvar] and device mappings refuse reads
      }
      if (read <= 0) break;
      bytes += read;
      hits += hitsIn(chunk.subarray(0, read));
      if (at + read >= end) break;
      at += Math.max(1, read - (longest - 1));
    }
  }
  closeSync(fd);
  return { regions, bytes, hits };
}

const pid = Number(pidArg);
const visible = Object.fromEntries((spec.watch ?? []).map((watched) => [watched, existsSync(`/proc/${watched}`)]));
console.log(JSON.stringify({ pid, environ: scanEnviron(pid), memory: scanMemory(pid), visible }));
