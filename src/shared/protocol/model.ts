/** The model picker: the live model list and the open conversation's model. */
import type { ErrorView, ModelView } from '../views';
import { message, text } from './schema';

/** Host → webview. */
export type ModelToWebview =
  /** The live model list (from GET /v1/models, with derived capabilities) and the conversation's model. */
  {
    readonly type: 'state/models';
    readonly models: readonly ModelView[];
    readonly selected: string | undefined;
    readonly loading: boolean;
    readonly error?: ErrorView;
  };

/** Webview → host. */
export const modelFromWebview = [
  /** Choose the model of the open conversation. */
  message('model/select', { modelId: text }),
  /** Reload the model list from the service. */
  message('model/refresh', {}),
] as const;
