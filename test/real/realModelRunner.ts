// The mocha runner for the real-model tier's extension-host suites: VS Code loads it as
// `extensionTestsPath` when test/real/run.mjs starts the offline harness with HARNESS_TESTS_ENTRY
// pointing here. It runs the suites of THIS folder, which the normal integration tier never loads (they
// need the local stack of real models, which only the real-model tier starts).
import { runSuites } from '../integration/integrationRunner';

/** Called by VS Code in the extension host; resolves when every test passed. */
export function run(): Promise<void> {
  return runSuites(__dirname);
}
