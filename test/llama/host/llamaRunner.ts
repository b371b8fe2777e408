// The mocha runner for the llama tier's extension-host suites: VS Code loads it as `extensionTestsPath`
// when test/llama/run.mjs starts the offline harness with HARNESS_TESTS_ENTRY pointing here. It runs the
// suites of THIS folder, which the normal integration tier never loads (they need llama-server, which only
// the llama tier starts), with the same runner and results file as test/integration.
import { runSuites } from '../../integration/integrationRunner';

/** Called by VS Code in the extension host; resolves when every test passed. */
export function run(): Promise<void> {
  return runSuites(__dirname);
}
