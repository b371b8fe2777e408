// The words of a service error in the display language (vscode.l10n.t), for errorMessage.ts: one whole sentence
// per reason and per missing feature, never pieces joined in code. Read when an error is shown.
import * as vscode from 'vscode';
import type { ApiErrorReason, MissingFeature } from '../../core/api/errors';
import type { ErrorTexts } from './errorMessage';

function summary(reason: ApiErrorReason): string {
  switch (reason) {
    case 'auth':
      return vscode.l10n.t('The service rejected the API key');
    case 'notFound':
      return vscode.l10n.t('The model was not found');
    case 'badRequest':
      return vscode.l10n.t('The service rejected the request');
    case 'invalid':
      return vscode.l10n.t('The request is invalid');
    case 'contextTooLong':
      return vscode.l10n.t('The input is too long for the model');
    case 'tooLarge':
      return vscode.l10n.t('The upload is too large');
    case 'rateLimited':
      return vscode.l10n.t('The service is rate limiting requests');
    case 'timeout':
      return vscode.l10n.t('The request timed out');
    case 'server':
      return vscode.l10n.t('The service failed');
    case 'network':
      return vscode.l10n.t('The connection to the service failed');
    case 'canceled':
      return vscode.l10n.t('Stopped by the user');
    case 'modelNotCompatible':
      return vscode.l10n.t('The model does not support this operation');
    case 'unsupported':
      return vscode.l10n.t('The server does not offer this operation');
    case 'malformedResponse':
      return vscode.l10n.t('The service sent a response Cadenza cannot read');
  }
}

function missing(feature: MissingFeature): string {
  switch (feature) {
    case 'chatCompletions':
      return vscode.l10n.t('This server does not offer chat completions');
    case 'embeddings':
      return vscode.l10n.t('This server does not offer embeddings');
    case 'audioTranscription':
      return vscode.l10n.t('This server does not offer audio transcription');
    case 'audioTranslation':
      return vscode.l10n.t('This server does not offer audio translation');
    case 'audioReasoning':
      return vscode.l10n.t('This server does not offer audio reasoning');
    case 'modelListing':
      return vscode.l10n.t('This server does not offer a model listing');
    case 'modelProperties':
      return vscode.l10n.t('This server does not offer its model properties');
    case 'imageInput':
      return vscode.l10n.t('This server does not accept image input');
    case 'audioInput':
      return vscode.l10n.t('This server does not accept audio input');
  }
}

/** The texts in the display language; `translated` is false with English, where VS Code loads no bundle. */
export function errorTexts(): ErrorTexts {
  return {
    translated: vscode.l10n.bundle !== undefined,
    summary,
    missing,
    wait: (seconds) => vscode.l10n.t('The service asks to wait {0} s before retrying', seconds),
    withDetail: (text, detail) => vscode.l10n.t('{0}: {1}', text, detail),
  };
}
