/* global window, document, sessionStorage */
// The sandbox's stand-in for VS Code's webview API: `acquireVsCodeApi` (once per load, as in VS Code)
// with postMessage recorded in `__sandbox.posted` and handed to the scripted host, and getState/setState
// kept in sessionStorage so a reload restores them like VS Code does. CSP violations are recorded too.
(() => {
  const sandbox = {
    /** Every message the panel posted, in order (structured-cloned like VS Code does). */
    posted: [],
    /** CSP violations seen by the page. */
    cspViolations: [],
    /** Set by scenarios.js: handles each posted message. */
    onPost: undefined,
    /** Sends a host → webview message the way VS Code delivers it (a window message event). */
    send(message) {
      window.postMessage(message, '*');
    },
  };
  window.__sandbox = sandbox;
  document.addEventListener('securitypolicyviolation', (event) => {
    sandbox.cspViolations.push(`${event.violatedDirective}: ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
  });
  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return Object.freeze({
      postMessage(message) {
        const copy = structuredClone(message);
        sandbox.posted.push(copy);
        setTimeout(() => sandbox.onPost?.(copy), 0);
      },
      getState() {
        const saved = sessionStorage.getItem('cadenza-sandbox-state');
        return saved ? JSON.parse(saved) : undefined;
      },
      setState(state) {
        sessionStorage.setItem('cadenza-sandbox-state', JSON.stringify(state));
        return state;
      },
    });
  };
})();
