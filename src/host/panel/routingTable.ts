// The panel's routing table: every feature's handlers, one line each. The result must be `PanelHandlers`,
// so a message the protocol declares and no feature handles does not compile.
import { agentHandlers } from './handlers/agent';
import { attachmentsHandlers } from './handlers/attachments';
import { chatHandlers } from './handlers/chat';
import { checkpointHandlers } from './handlers/checkpoint';
import { codeHandlers } from './handlers/code';
import { condenseHandlers } from './handlers/condense';
import { conversationHandlers } from './handlers/conversation';
import { instructionsHandlers } from './handlers/instructions';
import { mentionHandlers } from './handlers/mention';
import { modelHandlers } from './handlers/model';
import { panelHandlers } from './handlers/panel';
import { promptsHandlers } from './handlers/prompts';
import type { PanelHandlers, PanelParts } from './router';

/** Every message's handler, from the parts they reach. */
export function routingTable(parts: PanelParts): PanelHandlers {
  return {
    ...panelHandlers(parts),
    ...chatHandlers(parts),
    ...conversationHandlers(parts),
    ...modelHandlers(parts),
    ...codeHandlers(),
    ...attachmentsHandlers(parts),
    ...mentionHandlers(parts),
    ...agentHandlers(parts),
    ...checkpointHandlers(parts),
    ...condenseHandlers(parts),
    ...instructionsHandlers(parts),
    ...promptsHandlers(parts),
  };
}
