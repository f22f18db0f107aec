import { describe, expect, it } from '@jest/globals';
import { parseRemoteUrl } from '../../src/hosts/common/remote-url.js';

describe('parseRemoteUrl', () => {
  it.each([
    ['git@github.com:octo-org/octo-repo.git', 'github.com', 'octo-org', 'octo-repo'],
    ['git@github.com:octo-org/octo-repo', 'github.com', 'octo-org', 'octo-repo'],
    ['https://github.com/octo-org/octo-repo.git', 'github.com', 'octo-org', 'octo-repo'],
    ['https://github.com/octo-org/octo-repo', 'github.com', 'octo-org', 'octo-repo'],
    [
      'https://x-access-token:ghs_secret@github.com/octo-org/octo-repo.git',
      'github.com',
      'octo-org',
      'octo-repo',
    ],
    ['ssh://git@ghe.example.com:2222/platform/api.git', 'ghe.example.com', 'platform', 'api'],
    ['git@GHE.Example.com:platform/api.git', 'ghe.example.com', 'platform', 'api'],
    ['https://ghe.example.com:8443/platform/api.git', 'ghe.example.com:8443', 'platform', 'api'],
    [
      'https://gitlab-ci-token:abc@gitlab.example.com/group/sub/project.git',
      'gitlab.example.com',
      'group/sub',
      'project',
    ],
    ['git://github.com/octo-org/octo-repo.git/', 'github.com', 'octo-org', 'octo-repo'],
  ])('%s', (url, host, owner, name) => {
    expect(parseRemoteUrl(url)).toEqual({ host, owner, name });
  });

  it.each([
    '',
    'octo-repo',
    'https://github.com/octo-org',
    'file:///srv/git/repo.git',
    'ftp://h/a/b',
    'not a url',
  ])('names no repository for %j', (url) => {
    expect(parseRemoteUrl(url)).toBeUndefined();
  });
});
