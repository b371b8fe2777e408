import type { HostContext } from '../context';

/** `cadenza.showLog`: reveals Cadenza's log channel. */
export function showLog(host: HostContext): void {
  host.log.show(true);
}
