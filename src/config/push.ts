/** Push delivery (src/domain/push/): the transport, and each push service's credentials. */

import { bool, ConfigError, oneOf, optional, required, url, type Env } from './parse.js';

export interface PushConfig {
  push: {
    /** outbox: every push is recorded only; live: recorded and sent through FCM, APNs, Web Push. */
    transport: 'outbox' | 'live';
    /** FCM HTTP v1 (Android, and iOS apps that use Firebase); unset: those devices are not sent to. */
    fcm: { credentialsFile: string; baseUrl: string; tokenUrl: string } | undefined;
    /** APNs over HTTP/2 with a .p8 token key; unset: iOS devices go through FCM when it is set. */
    apns:
      | {
          keyFile: string;
          keyId: string;
          teamId: string;
          topic: string;
          baseUrl: string;
          production: boolean;
        }
      | undefined;
    /** VAPID keys of Web Push; both unset: generated once and kept in the database (app_secrets). */
    vapid: {
      publicKey: string | undefined;
      privateKey: string | undefined;
      /** The contact push services see; unset: `mailto:` SUPPORT_EMAIL (the container fills it in). */
      subject: string | undefined;
    };
  };
}

export function pushConfig(env: Env): PushConfig {
  const transport = oneOf(env, 'PUSH_TRANSPORT', ['outbox', 'live'] as const, 'outbox');
  const credentialsFile = optional(env, 'FCM_CREDENTIALS_FILE');
  const fcm = credentialsFile
    ? {
        credentialsFile,
        baseUrl: url(env, 'FCM_BASE_URL', 'https://fcm.googleapis.com', ['https:'])!.replace(/\/+$/, ''),
        tokenUrl: url(env, 'FCM_TOKEN_URL', 'https://oauth2.googleapis.com/token', ['https:'])!,
      }
    : undefined;

  const keyFile = optional(env, 'APNS_KEY_FILE');
  const production = bool(env, 'APNS_PRODUCTION', false);
  const apns = keyFile
    ? {
        keyFile,
        keyId: required('APNS_KEY_ID', optional(env, 'APNS_KEY_ID'), 'APNS_KEY_FILE is set'),
        teamId: required('APNS_TEAM_ID', optional(env, 'APNS_TEAM_ID'), 'APNS_KEY_FILE is set'),
        topic: required('APNS_TOPIC', optional(env, 'APNS_TOPIC'), 'APNS_KEY_FILE is set'),
        production,
        baseUrl: url(
          env,
          'APNS_BASE_URL',
          production ? 'https://api.push.apple.com' : 'https://api.sandbox.push.apple.com',
          ['https:'],
        )!.replace(/\/+$/, ''),
      }
    : undefined;

  const publicKey = optional(env, 'VAPID_PUBLIC_KEY');
  const privateKey = optional(env, 'VAPID_PRIVATE_KEY');
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together (or both left unset)');
  }
  const subject = optional(env, 'VAPID_SUBJECT');
  if (subject !== undefined && !/^(mailto:|https:)/.test(subject)) {
    throw new ConfigError('VAPID_SUBJECT must be a mailto: or https: URL');
  }
  return { push: { transport, fcm, apns, vapid: { publicKey, privateKey, subject } } };
}
