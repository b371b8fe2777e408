// The model picker: choose the open conversation's model, reload the list.
import * as vscode from 'vscode';
import { commandIds } from '../../ids';
import type { Handlers, PanelParts } from '../router';

export function modelHandlers({ chat }: Pick<PanelParts, 'chat'>): Handlers<'model/select' | 'model/refresh'> {
  return {
    'model/select': (message) => chat.selectModel(message.modelId),
    'model/refresh': async () => {
      await vscode.commands.executeCommand(commandIds.refreshModels);
    },
  };
}
