// The panel's model picker: the listed models with their prices, the one selected, whether the list is
// loading or failed, and a warning when the selected model is no longer offered (models retire).
import * as vscode from 'vscode';
import type { ModelCatalogState } from '../service/connection';
import { modelView } from './presenters';
import { errorView } from '../service/errorView';
import type { PanelSink } from './turnTypes';

/** Posts the picker's state with `selected`; a model the service no longer lists is reported, never silently replaced. */
export function postModelPicker(sink: PanelSink, state: ModelCatalogState, selected: string | undefined): void {
  sink({
    type: 'state/models',
    models: state.models.map(modelView),
    selected,
    loading: state.loading,
    ...(state.error !== undefined ? { error: errorView(state.error) } : {}),
  });
  if (selected && !state.loading && state.models.length > 0 && !state.models.some((model) => model.id === selected)) {
    sink({
      type: 'notice',
      level: 'warning',
      text: vscode.l10n.t('The model {0} is no longer offered by the service. Pick another model to continue this conversation.', selected),
    });
  }
}
