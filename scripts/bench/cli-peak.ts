// Runs one CLI command in this process with its stdout dropped, then prints {exit, peakRssBytes, stderr} as one
// JSON line: the bomb bench (scripts/bench-bombs.ts) spawns it per case to measure a run's peak memory.
import { main } from '../../src/cli/main.ts';
import { processIO } from '../../src/cli/io.ts';

let stderr = '';
const io = { ...processIO(), stdout: () => undefined, stderr: (text: string) => void (stderr += text.slice(0, 2000)) };
const exit = await main(process.argv.slice(2), io);
process.stdout.write(JSON.stringify({ exit, peakRssBytes: process.resourceUsage().maxRSS * 1024, stderr: stderr.slice(0, 400) }) + '\n');
