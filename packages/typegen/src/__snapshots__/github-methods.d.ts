// github.meta_root
type Root = {
 /** @format uri-template */
 current_user_url: string;
 /** @format uri-template */
 current_user_authorizations_html_url: string;
 /** @format uri-template */
 authorizations_url: string;
 /** @format uri-template */
 code_search_url: string;
 /** @format uri-template */
 commit_search_url: string;
 /** @format uri-template */
 emails_url: string;
 /** @format uri-template */
 emojis_url: string;
 /** @format uri-template */
 events_url: string;
 /** @format uri-template */
 feeds_url: string;
 /** @format uri-template */
 followers_url: string;
 /** @format uri-template */
 following_url: string;
 /** @format uri-template */
 gists_url: string;
 /** @format uri-template @deprecated */
 hub_url?: string;
 /** @format uri-template */
 issue_search_url: string;
 /** @format uri-template */
 issues_url: string;
 /** @format uri-template */
 keys_url: string;
 /** @format uri-template */
 label_search_url: string;
 /** @format uri-template */
 notifications_url: string;
 /** @format uri-template */
 organization_url: string;
 /** @format uri-template */
 organization_repositories_url: string;
 /** @format uri-template */
 organization_teams_url: string;
 /** @format uri-template */
 public_gists_url: string;
 /** @format uri-template */
 rate_limit_url: string;
 /** @format uri-template */
 repository_url: string;
 /** @format uri-template */
 repository_search_url: string;
 /** @format uri-template */
 current_user_repositories_url: string;
 /** @format uri-template */
 starred_url: string;
 /** @format uri-template */
 starred_gists_url: string;
 /** @format uri-template */
 topic_search_url?: string;
 /** @format uri-template */
 user_url: string;
 /** @format uri-template */
 user_organizations_url: string;
 /** @format uri-template */
 user_repositories_url: string;
 /** @format uri-template */
 user_search_url: string;
};

type MetaRootInput = {};
type MetaRootOutput = Root;

declare const github: {
 /** GitHub API Root */
 meta_root(input?: MetaRootInput): Promise<MetaRootOutput>;
};

// github.repos_get
/** Full Repository */
type FullRepository = {
 /** @format int64 */
 id: number;
 node_id: string;
 name: string;
 full_name: string;
 owner: SimpleUser;
 private: boolean;
 /** @format uri */
 html_url: string;
 description: string | null;
 fork: boolean;
 /** @format uri */
 url: string;
 archive_url: string;
 assignees_url: string;
 blobs_url: string;
 branches_url: string;
 collaborators_url: string;
 comments_url: string;
 commits_url: string;
 compare_url: string;
 contents_url: string;
 /** @format uri */
 contributors_url: string;
 /** @format uri */
 deployments_url: string;
 /** @format uri */
 downloads_url: string;
 /** @format uri */
 events_url: string;
 /** @format uri */
 forks_url: string;
 git_commits_url: string;
 git_refs_url: string;
 git_tags_url: string;
 git_url: string;
 issue_comment_url: string;
 issue_events_url: string;
 issues_url: string;
 keys_url: string;
 labels_url: string;
 /** @format uri */
 languages_url: string;
 /** @format uri */
 merges_url: string;
 milestones_url: string;
 notifications_url: string;
 pulls_url: string;
 releases_url: string;
 ssh_url: string;
 /** @format uri */
 stargazers_url: string;
 statuses_url: string;
 /** @format uri */
 subscribers_url: string;
 /** @format uri */
 subscription_url: string;
 /** @format uri */
 tags_url: string;
 /** @format uri */
 teams_url: string;
 trees_url: string;
 clone_url: string;
 /** @format uri */
 mirror_url: string | null;
 /** @format uri */
 hooks_url: string;
 /** @format uri */
 svn_url: string;
 /** @format uri */
 homepage: string | null;
 language: string | null;
 forks_count: number;
 stargazers_count: number;
 watchers_count: number;
 /** The size of the repository, in kilobytes. */
 size: number;
 default_branch: string;
 open_issues_count: number;
 is_template?: boolean;
 topics?: string[];
 has_issues: boolean;
 has_projects: boolean;
 has_wiki: boolean;
 has_pages: boolean;
 has_downloads?: boolean;
 has_discussions: boolean;
 has_pull_requests?: boolean;
 /** The policy controlling who can create pull requests: all or collaborators_only. */
 pull_request_creation_policy?: "all" | "collaborators_only";
 archived: boolean;
 /** Returns whether or not this repository disabled. */
 disabled: boolean;
 /** The repository visibility: public, private, or internal. */
 visibility?: string;
 /** @format date-time */
 pushed_at: string;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 permissions?: Permission6;
 allow_rebase_merge?: boolean;
 template_repository?: NullableRepository;
 temp_clone_token?: string | null;
 allow_squash_merge?: boolean;
 allow_auto_merge?: boolean;
 delete_branch_on_merge?: boolean;
 allow_merge_commit?: boolean;
 allow_update_branch?: boolean;
 use_squash_pr_title_as_default?: boolean;
 /** The default value for a squash merge commit title: */
 squash_merge_commit_title?: "PR_TITLE" | "COMMIT_OR_PR_TITLE";
 /** The default value for a squash merge commit message: */
 squash_merge_commit_message?: "PR_BODY" | "COMMIT_MESSAGES" | "BLANK";
 /** The default value for a merge commit title. */
 merge_commit_title?: "PR_TITLE" | "MERGE_MESSAGE";
 /** The default value for a merge commit message. */
 merge_commit_message?: "PR_BODY" | "PR_TITLE" | "BLANK";
 allow_forking?: boolean;
 web_commit_signoff_required?: boolean;
 subscribers_count: number;
 network_count: number;
 license: NullableLicenseSimple;
 organization?: NullableSimpleUser;
 parent?: Repository;
 source?: Repository;
 forks: number;
 master_branch?: string;
 open_issues: number;
 watchers: number;
 /** Whether anonymous git access is allowed. @default true */
 anonymous_access_enabled?: boolean;
 code_of_conduct?: CodeOfConductSimple;
 security_and_analysis?: SecurityAndAnalysis;
 /** The custom properties that were defined for the repository. */
 custom_properties?: Record<string, unknown>;
};

/** A GitHub user. */
type SimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
};

type Permission6 = {
 admin: boolean;
 maintain?: boolean;
 push: boolean;
 triage?: boolean;
 pull: boolean;
};

/** A repository on GitHub. */
type NullableRepository = {
 /** Unique identifier of the repository @format int64 */
 id: number;
 node_id: string;
 /** The name of the repository. */
 name: string;
 full_name: string;
 license: NullableLicenseSimple;
 forks: number;
 permissions?: Permission2;
 owner: SimpleUser;
 /** Whether the repository is private or public. */
 private: boolean;
 /** @format uri */
 html_url: string;
 description: string | null;
 fork: boolean;
 /** @format uri */
 url: string;
 archive_url: string;
 assignees_url: string;
 blobs_url: string;
 branches_url: string;
 collaborators_url: string;
 comments_url: string;
 commits_url: string;
 compare_url: string;
 contents_url: string;
 /** @format uri */
 contributors_url: string;
 /** @format uri */
 deployments_url: string;
 /** @format uri */
 downloads_url: string;
 /** @format uri */
 events_url: string;
 /** @format uri */
 forks_url: string;
 git_commits_url: string;
 git_refs_url: string;
 git_tags_url: string;
 git_url: string;
 issue_comment_url: string;
 issue_events_url: string;
 issues_url: string;
 keys_url: string;
 labels_url: string;
 /** @format uri */
 languages_url: string;
 /** @format uri */
 merges_url: string;
 milestones_url: string;
 notifications_url: string;
 pulls_url: string;
 releases_url: string;
 ssh_url: string;
 /** @format uri */
 stargazers_url: string;
 statuses_url: string;
 /** @format uri */
 subscribers_url: string;
 /** @format uri */
 subscription_url: string;
 /** @format uri */
 tags_url: string;
 /** @format uri */
 teams_url: string;
 trees_url: string;
 clone_url: string;
 /** @format uri */
 mirror_url: string | null;
 /** @format uri */
 hooks_url: string;
 /** @format uri */
 svn_url: string;
 /** @format uri */
 homepage: string | null;
 language: string | null;
 forks_count: number;
 stargazers_count: number;
 watchers_count: number;
 /** The size of the repository, in kilobytes. */
 size: number;
 /** The default branch of the repository. */
 default_branch: string;
 open_issues_count: number;
 /** Whether this repository acts as a template that can be used to generate new repositories. */
 is_template?: boolean;
 topics?: string[];
 /** Whether issues are enabled. @default true */
 has_issues: boolean;
 /** Whether projects are enabled. @default true */
 has_projects: boolean;
 /** Whether the wiki is enabled. @default true */
 has_wiki: boolean;
 has_pages: boolean;
 /** Whether downloads are enabled. @default true @deprecated */
 has_downloads: boolean;
 /** Whether discussions are enabled. */
 has_discussions?: boolean;
 /** Whether pull requests are enabled. @default true */
 has_pull_requests?: boolean;
 /** The policy controlling who can create pull requests: all or collaborators_only. */
 pull_request_creation_policy?: "all" | "collaborators_only";
 /** Whether the repository is archived. */
 archived: boolean;
 /** Returns whether or not this repository disabled. */
 disabled: boolean;
 /** The repository visibility: public, private, or internal. @default "public" */
 visibility?: string;
 /** @format date-time */
 pushed_at: string | null;
 /** @format date-time */
 created_at: string | null;
 /** @format date-time */
 updated_at: string | null;
 /** Whether to allow rebase merges for pull requests. @default true */
 allow_rebase_merge?: boolean;
 temp_clone_token?: string;
 /** Whether to allow squash merges for pull requests. @default true */
 allow_squash_merge?: boolean;
 /** Whether to allow Auto-merge to be used on pull requests. */
 allow_auto_merge?: boolean;
 /** Whether to delete head branches when pull requests are merged */
 delete_branch_on_merge?: boolean;
 /** Whether or not a pull request head branch that is behind its base branch can always be updated even if it is not required to be up to date before merging. */
 allow_update_branch?: boolean;
 /** Whether a squash merge commit can use the pull request title as default. **This property is closing down. @deprecated */
 use_squash_pr_title_as_default?: boolean;
 /** The default value for a squash merge commit title: */
 squash_merge_commit_title?: "PR_TITLE" | "COMMIT_OR_PR_TITLE";
 /** The default value for a squash merge commit message: */
 squash_merge_commit_message?: "PR_BODY" | "COMMIT_MESSAGES" | "BLANK";
 /** The default value for a merge commit title. */
 merge_commit_title?: "PR_TITLE" | "MERGE_MESSAGE";
 /** The default value for a merge commit message. */
 merge_commit_message?: "PR_BODY" | "PR_TITLE" | "BLANK";
 /** Whether to allow merge commits for pull requests. @default true */
 allow_merge_commit?: boolean;
 /** Whether to allow forking this repo */
 allow_forking?: boolean;
 /** Whether to require contributors to sign off on web-based commits */
 web_commit_signoff_required?: boolean;
 open_issues: number;
 watchers: number;
 master_branch?: string;
 starred_at?: string;
 /** Whether anonymous git access is enabled for this repository */
 anonymous_access_enabled?: boolean;
 /** The status of the code search index for this repository */
 code_search_index_status?: CodeSearchIndexStatus;
} | null;

/** License Simple */
type NullableLicenseSimple = {
 key: string;
 name: string;
 /** @format uri */
 url: string | null;
 spdx_id: string | null;
 node_id: string;
 /** @format uri */
 html_url?: string;
} | null;

/** A GitHub user. */
type NullableSimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
} | null;

/** A repository on GitHub. */
type Repository = {
 /** Unique identifier of the repository @format int64 */
 id: number;
 node_id: string;
 /** The name of the repository. */
 name: string;
 full_name: string;
 license: NullableLicenseSimple;
 forks: number;
 permissions?: Permission2;
 owner: SimpleUser;
 /** Whether the repository is private or public. */
 private: boolean;
 /** @format uri */
 html_url: string;
 description: string | null;
 fork: boolean;
 /** @format uri */
 url: string;
 archive_url: string;
 assignees_url: string;
 blobs_url: string;
 branches_url: string;
 collaborators_url: string;
 comments_url: string;
 commits_url: string;
 compare_url: string;
 contents_url: string;
 /** @format uri */
 contributors_url: string;
 /** @format uri */
 deployments_url: string;
 /** @format uri */
 downloads_url: string;
 /** @format uri */
 events_url: string;
 /** @format uri */
 forks_url: string;
 git_commits_url: string;
 git_refs_url: string;
 git_tags_url: string;
 git_url: string;
 issue_comment_url: string;
 issue_events_url: string;
 issues_url: string;
 keys_url: string;
 labels_url: string;
 /** @format uri */
 languages_url: string;
 /** @format uri */
 merges_url: string;
 milestones_url: string;
 notifications_url: string;
 pulls_url: string;
 releases_url: string;
 ssh_url: string;
 /** @format uri */
 stargazers_url: string;
 statuses_url: string;
 /** @format uri */
 subscribers_url: string;
 /** @format uri */
 subscription_url: string;
 /** @format uri */
 tags_url: string;
 /** @format uri */
 teams_url: string;
 trees_url: string;
 clone_url: string;
 /** @format uri */
 mirror_url: string | null;
 /** @format uri */
 hooks_url: string;
 /** @format uri */
 svn_url: string;
 /** @format uri */
 homepage: string | null;
 language: string | null;
 forks_count: number;
 stargazers_count: number;
 watchers_count: number;
 /** The size of the repository, in kilobytes. */
 size: number;
 /** The default branch of the repository. */
 default_branch: string;
 open_issues_count: number;
 /** Whether this repository acts as a template that can be used to generate new repositories. */
 is_template?: boolean;
 topics?: string[];
 /** Whether issues are enabled. @default true */
 has_issues: boolean;
 /** Whether projects are enabled. @default true */
 has_projects: boolean;
 /** Whether the wiki is enabled. @default true */
 has_wiki: boolean;
 has_pages: boolean;
 /** Whether downloads are enabled. @default true @deprecated */
 has_downloads: boolean;
 /** Whether discussions are enabled. */
 has_discussions?: boolean;
 /** Whether pull requests are enabled. @default true */
 has_pull_requests?: boolean;
 /** The policy controlling who can create pull requests: all or collaborators_only. */
 pull_request_creation_policy?: "all" | "collaborators_only";
 /** Whether the repository is archived. */
 archived: boolean;
 /** Returns whether or not this repository disabled. */
 disabled: boolean;
 /** The repository visibility: public, private, or internal. @default "public" */
 visibility?: string;
 /** @format date-time */
 pushed_at: string | null;
 /** @format date-time */
 created_at: string | null;
 /** @format date-time */
 updated_at: string | null;
 /** Whether to allow rebase merges for pull requests. @default true */
 allow_rebase_merge?: boolean;
 temp_clone_token?: string;
 /** Whether to allow squash merges for pull requests. @default true */
 allow_squash_merge?: boolean;
 /** Whether to allow Auto-merge to be used on pull requests. */
 allow_auto_merge?: boolean;
 /** Whether to delete head branches when pull requests are merged */
 delete_branch_on_merge?: boolean;
 /** Whether or not a pull request head branch that is behind its base branch can always be updated even if it is not required to be up to date before merging. */
 allow_update_branch?: boolean;
 /** Whether a squash merge commit can use the pull request title as default. **This property is closing down. @deprecated */
 use_squash_pr_title_as_default?: boolean;
 /** The default value for a squash merge commit title: */
 squash_merge_commit_title?: "PR_TITLE" | "COMMIT_OR_PR_TITLE";
 /** The default value for a squash merge commit message: */
 squash_merge_commit_message?: "PR_BODY" | "COMMIT_MESSAGES" | "BLANK";
 /** The default value for a merge commit title. */
 merge_commit_title?: "PR_TITLE" | "MERGE_MESSAGE";
 /** The default value for a merge commit message. */
 merge_commit_message?: "PR_BODY" | "PR_TITLE" | "BLANK";
 /** Whether to allow merge commits for pull requests. @default true */
 allow_merge_commit?: boolean;
 /** Whether to allow forking this repo */
 allow_forking?: boolean;
 /** Whether to require contributors to sign off on web-based commits */
 web_commit_signoff_required?: boolean;
 open_issues: number;
 watchers: number;
 master_branch?: string;
 starred_at?: string;
 /** Whether anonymous git access is enabled for this repository */
 anonymous_access_enabled?: boolean;
 /** The status of the code search index for this repository */
 code_search_index_status?: CodeSearchIndexStatus;
};

/** Code of Conduct Simple */
type CodeOfConductSimple = {
 /** @format uri */
 url: string;
 key: string;
 name: string;
 /** @format uri */
 html_url: string | null;
};

type SecurityAndAnalysis = {
 /** Enable or disable GitHub Advanced Security for the repository. */
 advanced_security?: { status?: "enabled" | "disabled" };
 code_security?: { status?: "enabled" | "disabled" };
 /** Enable or disable Dependabot security updates for the repository. */
 dependabot_security_updates?: {
  /** The enablement status of Dependabot security updates for the repository. */
  status?: "enabled" | "disabled";
 };
 secret_scanning?: { status?: "enabled" | "disabled" };
 secret_scanning_push_protection?: { status?: "enabled" | "disabled" };
 secret_scanning_non_provider_patterns?: { status?: "enabled" | "disabled" };
 secret_scanning_ai_detection?: { status?: "enabled" | "disabled" };
 secret_scanning_delegated_alert_dismissal?: { status?: "enabled" | "disabled" };
 secret_scanning_delegated_bypass?: { status?: "enabled" | "disabled" };
 secret_scanning_delegated_bypass_options?: {
  /** The bypass reviewers for secret scanning delegated bypass */
  reviewers?: Reviewer[];
 };
} | null;

type Permission2 = {
 admin: boolean;
 pull: boolean;
 triage?: boolean;
 push: boolean;
 maintain?: boolean;
};

/** The status of the code search index for this repository */
type CodeSearchIndexStatus = { lexical_search_ok?: boolean; lexical_commit_sha?: string };

type Reviewer = {
 /** The ID of the team or role selected as a bypass reviewer */
 reviewer_id: number;
 /** The type of the bypass reviewer */
 reviewer_type: "TEAM" | "ROLE";
 /** The bypass mode for the reviewer @default "ALWAYS" */
 mode?: "ALWAYS" | "EXEMPT";
};

type ReposGetInput = {
 /** The account owner of the repository. The name is not case sensitive. */
 owner: string;
 /** The name of the repository without the `.git` extension. The name is not case sensitive. */
 repo: string;
};
type ReposGetOutput = FullRepository;

declare const github: {
 /** Get a repository */
 repos_get(input: ReposGetInput): Promise<ReposGetOutput>;
};

// github.issues_list_for_repo
/** Issues are a great way to keep track of tasks, enhancements, and bugs for your projects. */
type Issue = {
 /** @format int64 */
 id: number;
 node_id: string;
 /** URL for the issue @format uri */
 url: string;
 /** @format uri */
 repository_url: string;
 labels_url: string;
 /** @format uri */
 comments_url: string;
 /** @format uri */
 events_url: string;
 /** @format uri */
 html_url: string;
 /** Number uniquely identifying the issue within its repository */
 number: number;
 /** State of the issue; either 'open' or 'closed' */
 state: string;
 /** The reason for the current state */
 state_reason?: "completed" | "reopened" | "not_planned" | "duplicate" | null;
 /** Title of the issue */
 title: string;
 /** Contents of the issue */
 body?: string | null;
 user: NullableSimpleUser;
 /** Labels to associate with this issue; pass one or more label names to replace the set of labels on this issue; send an empty array to clear all labels from the issue; note that the labels are silently dropped for users without push access to the repository */
 labels: (string | Label2)[];
 assignee: NullableSimpleUser;
 assignees?: SimpleUser[];
 milestone: NullableMilestone;
 locked: boolean;
 active_lock_reason?: string | null;
 comments: number;
 pull_request?: PullRequest2;
 /** @format date-time */
 closed_at: string | null;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 draft?: boolean;
 closed_by?: NullableSimpleUser;
 body_html?: string;
 body_text?: string;
 /** @format uri */
 timeline_url?: string;
 type?: IssueType;
 repository?: Repository;
 performed_via_github_app?: NullableIntegration;
 author_association?: AuthorAssociation;
 reactions?: ReactionRollup;
 sub_issues_summary?: SubIssuesSummary;
 /** URL to get the parent issue of this issue, if it is a sub-issue @format uri */
 parent_issue_url?: string | null;
 pinned_comment?: NullableIssueComment;
 issue_dependencies_summary?: IssueDependenciesSummary;
 issue_field_values?: IssueFieldValue[];
};

/** A GitHub user. */
type NullableSimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
} | null;

type Label2 = {
 /** @format int64 */
 id?: number;
 node_id?: string;
 /** @format uri */
 url?: string;
 name?: string;
 description?: string | null;
 color?: string | null;
 default?: boolean;
};

/** A GitHub user. */
type SimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
};

/** A collection of related issues and pull requests. */
type NullableMilestone = {
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 labels_url: string;
 id: number;
 node_id: string;
 /** The number of the milestone. */
 number: number;
 /** The state of the milestone. @default "open" */
 state: "open" | "closed";
 /** The title of the milestone. */
 title: string;
 description: string | null;
 creator: NullableSimpleUser;
 open_issues: number;
 closed_issues: number;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 /** @format date-time */
 closed_at: string | null;
 /** @format date-time */
 due_on: string | null;
} | null;

type PullRequest2 = {
 /** @format date-time */
 merged_at?: string | null;
 /** @format uri */
 diff_url: string | null;
 /** @format uri */
 html_url: string | null;
 /** @format uri */
 patch_url: string | null;
 /** @format uri */
 url: string | null;
};

/** The type assigned to the issue. */
type IssueType = {
 /** The unique identifier of the issue type. */
 id: number;
 /** The node identifier of the issue type. */
 node_id: string;
 /** The name of the issue type. */
 name: string;
 /** The description of the issue type. */
 description: string | null;
 /** The color of the issue type. */
 color?: Color;
 /** The time the issue type created. @format date-time */
 created_at?: string;
 /** The time the issue type last updated. @format date-time */
 updated_at?: string;
 /** The enabled state of the issue type. */
 is_enabled?: boolean;
} | null;

/** A repository on GitHub. */
type Repository = {
 /** Unique identifier of the repository @format int64 */
 id: number;
 node_id: string;
 /** The name of the repository. */
 name: string;
 full_name: string;
 license: NullableLicenseSimple;
 forks: number;
 permissions?: Permission2;
 owner: SimpleUser;
 /** Whether the repository is private or public. */
 private: boolean;
 /** @format uri */
 html_url: string;
 description: string | null;
 fork: boolean;
 /** @format uri */
 url: string;
 archive_url: string;
 assignees_url: string;
 blobs_url: string;
 branches_url: string;
 collaborators_url: string;
 comments_url: string;
 commits_url: string;
 compare_url: string;
 contents_url: string;
 /** @format uri */
 contributors_url: string;
 /** @format uri */
 deployments_url: string;
 /** @format uri */
 downloads_url: string;
 /** @format uri */
 events_url: string;
 /** @format uri */
 forks_url: string;
 git_commits_url: string;
 git_refs_url: string;
 git_tags_url: string;
 git_url: string;
 issue_comment_url: string;
 issue_events_url: string;
 issues_url: string;
 keys_url: string;
 labels_url: string;
 /** @format uri */
 languages_url: string;
 /** @format uri */
 merges_url: string;
 milestones_url: string;
 notifications_url: string;
 pulls_url: string;
 releases_url: string;
 ssh_url: string;
 /** @format uri */
 stargazers_url: string;
 statuses_url: string;
 /** @format uri */
 subscribers_url: string;
 /** @format uri */
 subscription_url: string;
 /** @format uri */
 tags_url: string;
 /** @format uri */
 teams_url: string;
 trees_url: string;
 clone_url: string;
 /** @format uri */
 mirror_url: string | null;
 /** @format uri */
 hooks_url: string;
 /** @format uri */
 svn_url: string;
 /** @format uri */
 homepage: string | null;
 language: string | null;
 forks_count: number;
 stargazers_count: number;
 watchers_count: number;
 /** The size of the repository, in kilobytes. */
 size: number;
 /** The default branch of the repository. */
 default_branch: string;
 open_issues_count: number;
 /** Whether this repository acts as a template that can be used to generate new repositories. */
 is_template?: boolean;
 topics?: string[];
 /** Whether issues are enabled. @default true */
 has_issues: boolean;
 /** Whether projects are enabled. @default true */
 has_projects: boolean;
 /** Whether the wiki is enabled. @default true */
 has_wiki: boolean;
 has_pages: boolean;
 /** Whether downloads are enabled. @default true @deprecated */
 has_downloads: boolean;
 /** Whether discussions are enabled. */
 has_discussions?: boolean;
 /** Whether pull requests are enabled. @default true */
 has_pull_requests?: boolean;
 /** The policy controlling who can create pull requests: all or collaborators_only. */
 pull_request_creation_policy?: "all" | "collaborators_only";
 /** Whether the repository is archived. */
 archived: boolean;
 /** Returns whether or not this repository disabled. */
 disabled: boolean;
 /** The repository visibility: public, private, or internal. @default "public" */
 visibility?: string;
 /** @format date-time */
 pushed_at: string | null;
 /** @format date-time */
 created_at: string | null;
 /** @format date-time */
 updated_at: string | null;
 /** Whether to allow rebase merges for pull requests. @default true */
 allow_rebase_merge?: boolean;
 temp_clone_token?: string;
 /** Whether to allow squash merges for pull requests. @default true */
 allow_squash_merge?: boolean;
 /** Whether to allow Auto-merge to be used on pull requests. */
 allow_auto_merge?: boolean;
 /** Whether to delete head branches when pull requests are merged */
 delete_branch_on_merge?: boolean;
 /** Whether or not a pull request head branch that is behind its base branch can always be updated even if it is not required to be up to date before merging. */
 allow_update_branch?: boolean;
 /** Whether a squash merge commit can use the pull request title as default. **This property is closing down. @deprecated */
 use_squash_pr_title_as_default?: boolean;
 /** The default value for a squash merge commit title: */
 squash_merge_commit_title?: "PR_TITLE" | "COMMIT_OR_PR_TITLE";
 /** The default value for a squash merge commit message: */
 squash_merge_commit_message?: "PR_BODY" | "COMMIT_MESSAGES" | "BLANK";
 /** The default value for a merge commit title. */
 merge_commit_title?: "PR_TITLE" | "MERGE_MESSAGE";
 /** The default value for a merge commit message. */
 merge_commit_message?: "PR_BODY" | "PR_TITLE" | "BLANK";
 /** Whether to allow merge commits for pull requests. @default true */
 allow_merge_commit?: boolean;
 /** Whether to allow forking this repo */
 allow_forking?: boolean;
 /** Whether to require contributors to sign off on web-based commits */
 web_commit_signoff_required?: boolean;
 open_issues: number;
 watchers: number;
 master_branch?: string;
 starred_at?: string;
 /** Whether anonymous git access is enabled for this repository */
 anonymous_access_enabled?: boolean;
 /** The status of the code search index for this repository */
 code_search_index_status?: CodeSearchIndexStatus;
};

/** GitHub apps are a new way to extend GitHub. */
type NullableIntegration = {
 /** Unique identifier of the GitHub app */
 id: number;
 /** The slug name of the GitHub app */
 slug?: string;
 node_id: string;
 client_id?: string;
 owner: SimpleUser | Enterprise;
 /** The name of the GitHub app */
 name: string;
 description: string | null;
 /** @format uri */
 external_url: string;
 /** @format uri */
 html_url: string;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 /** The set of permissions for the GitHub app */
 permissions: Permission;
 /** The list of events for the GitHub app. */
 events: string[];
 /** The number of installations associated with the GitHub app. */
 installations_count?: number;
} | null;

/** How the author is associated with the repository. */
type AuthorAssociation = "COLLABORATOR" | "CONTRIBUTOR" | "FIRST_TIMER" | "FIRST_TIME_CONTRIBUTOR" | "MANNEQUIN" | "MEMBER" | "NONE" | "OWNER";

/** Reaction Rollup */
type ReactionRollup = {
 /** @format uri */
 url: string;
 total_count: number;
 "+1": number;
 "-1": number;
 laugh: number;
 confused: number;
 heart: number;
 hooray: number;
 eyes: number;
 rocket: number;
};

/** Sub-issues Summary */
type SubIssuesSummary = { total: number; completed: number; percent_completed: number };

/** Comments provide a way for people to collaborate on an issue. */
type NullableIssueComment = {
 /** Unique identifier of the issue comment @format int64 */
 id: number;
 node_id: string;
 /** URL for the issue comment @format uri */
 url: string;
 /** Contents of the issue comment */
 body?: string;
 body_text?: string;
 body_html?: string;
 /** @format uri */
 html_url: string;
 user: NullableSimpleUser;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 /** @format uri */
 issue_url: string;
 author_association?: AuthorAssociation;
 performed_via_github_app?: NullableIntegration;
 reactions?: ReactionRollup;
 pin?: NullablePinnedIssueComment;
 minimized?: NullableIssueCommentMinimized;
} | null;

/** Issue Dependencies Summary */
type IssueDependenciesSummary = {
 blocked_by: number;
 blocking: number;
 total_blocked_by: number;
 total_blocking: number;
};

/** A value assigned to an issue field */
type IssueFieldValue = {
 /** Unique identifier for the issue field. @format int64 */
 issue_field_id: number;
 /** The human-readable name of the issue field. */
 issue_field_name?: string;
 node_id: string;
 /** The data type of the issue field */
 data_type: "text" | "single_select" | "multi_select" | "number" | "date";
 /** The value of the issue field */
 value: string | number | null;
 /** Details about the selected option (only present for single_select fields) */
 single_select_option?: {
  /** Unique identifier for the option. @format int64 */
  id: number;
  /** The name of the option */
  name: string;
  /** The color of the option */
  color: string;
 } | null;
 /** Details about the selected options */
 multi_select_options?: {
  /** Unique identifier for the option. @format int64 */
  id: number;
  /** The name of the option */
  name: string;
  /** The color of the option */
  color: string;
 }[] | null;
};

/** The color of the issue type. */
type Color = "gray" | "blue" | "green" | "yellow" | "orange" | "red" | "pink" | "purple" | null;

/** License Simple */
type NullableLicenseSimple = {
 key: string;
 name: string;
 /** @format uri */
 url: string | null;
 spdx_id: string | null;
 node_id: string;
 /** @format uri */
 html_url?: string;
} | null;

type Permission2 = {
 admin: boolean;
 pull: boolean;
 triage?: boolean;
 push: boolean;
 maintain?: boolean;
};

/** The status of the code search index for this repository */
type CodeSearchIndexStatus = { lexical_search_ok?: boolean; lexical_commit_sha?: string };

/** An enterprise on GitHub. */
type Enterprise = {
 /** A short description of the enterprise. */
 description?: string | null;
 /** @format uri */
 html_url: string;
 /** The enterprise's website URL. @format uri */
 website_url?: string | null;
 /** Unique identifier of the enterprise */
 id: number;
 node_id: string;
 /** The name of the enterprise. */
 name: string;
 /** The slug url identifier for the enterprise. */
 slug: string;
 /** @format date-time */
 created_at: string | null;
 /** @format date-time */
 updated_at: string | null;
 /** @format uri */
 avatar_url: string;
};

/** The set of permissions for the GitHub app */
type Permission = {
 issues?: string;
 checks?: string;
 metadata?: string;
 contents?: string;
 deployments?: string;
 [key: string]: string | undefined;
};

/** Context around who pinned an issue comment and when it was pinned. */
type NullablePinnedIssueComment = {
 /** @format date-time */
 pinned_at: string;
 pinned_by: NullableSimpleUser;
} | null;

/** Details about why an issue comment was minimized. */
type NullableIssueCommentMinimized = {
 /** The reason the comment was minimized. */
 reason: string | null;
} | null;

type IssuesListForRepoInput = {
 /** The account owner of the repository. The name is not case sensitive. */
 owner: string;
 /** The name of the repository without the `.git` extension. The name is not case sensitive. */
 repo: string;
 /** If an `integer` is passed, it should refer to a milestone by its `number` field. If the string `*` is passed, issues with any milestone are accepted. If the string `none` is passed, issues without milestones are returned. */
 milestone?: string;
 /**
  * Indicates the state of the issues to return.
  * @default "open"
  */
 state?: "open" | "closed" | "all";
 /** Can be the name of a user. Pass in `none` for issues with no assigned user, and `*` for issues assigned to any user. */
 assignee?: string;
 /** Can be the name of an issue type. If the string `*` is passed, issues with any type are accepted. If the string `none` is passed, issues without type are returned. */
 type?: string;
 /** The user that created the issue. */
 creator?: string;
 /** A user that's mentioned in the issue. */
 mentioned?: string;
 /**
  * A comma-separated list of issue field filters in `field_slug:value` format.
  * Only issues matching all specified field values are returned.
  * Requires issue fields to be enabled for the repository. Issue fields are
  * not available for user-owned repositories, and field availability for
  * organization-owned public repositories depends on the organization's
  * visibility settings. For example, `priority:Urgent,severity:High` filters
  * issues where the `priority` field is `Urgent` AND the `severity` field is
  * `High`.
  */
 issue_field_values?: string;
 /** A list of comma separated label names. Example: `bug,ui,@high` */
 labels?: string;
 /**
  * What to sort results by.
  * @default "created"
  */
 sort?: "created" | "updated" | "comments";
 /**
  * The direction to sort the results by.
  * @default "desc"
  */
 direction?: "asc" | "desc";
 /**
  * Only show results that were last updated after the given time. This is a timestamp in ISO 8601 format: `YYYY-MM-DDTHH:MM:SSZ`.
  * @format date-time
  */
 since?: string;
 /**
  * The number of results per page (max 100). For more information, see "Using pagination in the REST API."
  * @default 30
  */
 per_page?: number;
 /**
  * The page number of the results to fetch. For more information, see "Using pagination in the REST API."
  * @default 1
  */
 page?: number;
};
type IssuesListForRepoOutput = Issue[];

declare const github: {
 /** List repository issues */
 issues_list_for_repo(input: IssuesListForRepoInput): Promise<IssuesListForRepoOutput>;
};

// github.search_repos
/** Repo Search Result Item */
type RepoSearchResultItem = {
 id: number;
 node_id: string;
 name: string;
 full_name: string;
 owner: NullableSimpleUser;
 private: boolean;
 /** @format uri */
 html_url: string;
 description: string | null;
 fork: boolean;
 /** @format uri */
 url: string;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 /** @format date-time */
 pushed_at: string;
 /** @format uri */
 homepage: string | null;
 size: number;
 stargazers_count: number;
 watchers_count: number;
 language: string | null;
 forks_count: number;
 open_issues_count: number;
 master_branch?: string;
 default_branch: string;
 score: number;
 /** @format uri */
 forks_url: string;
 keys_url: string;
 collaborators_url: string;
 /** @format uri */
 teams_url: string;
 /** @format uri */
 hooks_url: string;
 issue_events_url: string;
 /** @format uri */
 events_url: string;
 assignees_url: string;
 branches_url: string;
 /** @format uri */
 tags_url: string;
 blobs_url: string;
 git_tags_url: string;
 git_refs_url: string;
 trees_url: string;
 statuses_url: string;
 /** @format uri */
 languages_url: string;
 /** @format uri */
 stargazers_url: string;
 /** @format uri */
 contributors_url: string;
 /** @format uri */
 subscribers_url: string;
 /** @format uri */
 subscription_url: string;
 commits_url: string;
 git_commits_url: string;
 comments_url: string;
 issue_comment_url: string;
 contents_url: string;
 compare_url: string;
 /** @format uri */
 merges_url: string;
 archive_url: string;
 /** @format uri */
 downloads_url: string;
 issues_url: string;
 pulls_url: string;
 milestones_url: string;
 notifications_url: string;
 labels_url: string;
 releases_url: string;
 /** @format uri */
 deployments_url: string;
 git_url: string;
 ssh_url: string;
 clone_url: string;
 /** @format uri */
 svn_url: string;
 forks: number;
 open_issues: number;
 watchers: number;
 topics?: string[];
 /** @format uri */
 mirror_url: string | null;
 has_issues: boolean;
 has_projects: boolean;
 has_pages: boolean;
 has_wiki: boolean;
 has_downloads: boolean;
 has_discussions?: boolean;
 has_pull_requests?: boolean;
 /** The policy controlling who can create pull requests: all or collaborators_only. */
 pull_request_creation_policy?: "all" | "collaborators_only";
 archived: boolean;
 /** Returns whether or not this repository disabled. */
 disabled: boolean;
 /** The repository visibility: public, private, or internal. */
 visibility?: string;
 license: NullableLicenseSimple;
 permissions?: Permission6;
 text_matches?: SearchResultTextMatches;
 temp_clone_token?: string;
 allow_merge_commit?: boolean;
 allow_squash_merge?: boolean;
 allow_rebase_merge?: boolean;
 allow_auto_merge?: boolean;
 delete_branch_on_merge?: boolean;
 allow_forking?: boolean;
 is_template?: boolean;
 web_commit_signoff_required?: boolean;
};

/** A GitHub user. */
type NullableSimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
} | null;

/** License Simple */
type NullableLicenseSimple = {
 key: string;
 name: string;
 /** @format uri */
 url: string | null;
 spdx_id: string | null;
 node_id: string;
 /** @format uri */
 html_url?: string;
} | null;

type Permission6 = {
 admin: boolean;
 maintain?: boolean;
 push: boolean;
 triage?: boolean;
 pull: boolean;
};

/** Search Result Text Matches */
type SearchResultTextMatches = {
 object_url?: string;
 object_type?: string | null;
 property?: string;
 fragment?: string;
 matches?: { text?: string; indices?: number[] }[];
}[];

type SearchReposInput = {
 /** The query contains one or more search keywords and qualifiers. Qualifiers allow you to limit your search to specific areas of GitHub. The REST API supports the same qualifiers as the web interface for GitHub. To learn more about the format of the query, see Constructing a search query. See "Searching for repositories" for a detailed list of qualifiers. */
 q: string;
 /** Sorts the results of your query by number of `stars`, `forks`, or `help-wanted-issues` or how recently the items were `updated`. Default: best match */
 sort?: "stars" | "forks" | "help-wanted-issues" | "updated";
 /**
  * Determines whether the first search result returned is the highest number of matches (`desc`) or lowest number of matches (`asc`). This parameter is ignored unless you provide `sort`.
  * @default "desc"
  */
 order?: "desc" | "asc";
 /**
  * The number of results per page (max 100). For more information, see "Using pagination in the REST API."
  * @default 30
  */
 per_page?: number;
 /**
  * The page number of the results to fetch. For more information, see "Using pagination in the REST API."
  * @default 1
  */
 page?: number;
};
type SearchReposOutput = {
 total_count: number;
 incomplete_results: boolean;
 items: RepoSearchResultItem[];
};

declare const github: {
 /** Search repositories */
 search_repos(input: SearchReposInput): Promise<SearchReposOutput>;
};

// github.issues_create
/** Issues are a great way to keep track of tasks, enhancements, and bugs for your projects. */
type Issue = {
 /** @format int64 */
 id: number;
 node_id: string;
 /** URL for the issue @format uri */
 url: string;
 /** @format uri */
 repository_url: string;
 labels_url: string;
 /** @format uri */
 comments_url: string;
 /** @format uri */
 events_url: string;
 /** @format uri */
 html_url: string;
 /** Number uniquely identifying the issue within its repository */
 number: number;
 /** State of the issue; either 'open' or 'closed' */
 state: string;
 /** The reason for the current state */
 state_reason?: "completed" | "reopened" | "not_planned" | "duplicate" | null;
 /** Title of the issue */
 title: string;
 /** Contents of the issue */
 body?: string | null;
 user: NullableSimpleUser;
 /** Labels to associate with this issue; pass one or more label names to replace the set of labels on this issue; send an empty array to clear all labels from the issue; note that the labels are silently dropped for users without push access to the repository */
 labels: (string | Label2)[];
 assignee: NullableSimpleUser;
 assignees?: SimpleUser[];
 milestone: NullableMilestone;
 locked: boolean;
 active_lock_reason?: string | null;
 comments: number;
 pull_request?: PullRequest2;
 /** @format date-time */
 closed_at: string | null;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 draft?: boolean;
 closed_by?: NullableSimpleUser;
 body_html?: string;
 body_text?: string;
 /** @format uri */
 timeline_url?: string;
 type?: IssueType;
 repository?: Repository;
 performed_via_github_app?: NullableIntegration;
 author_association?: AuthorAssociation;
 reactions?: ReactionRollup;
 sub_issues_summary?: SubIssuesSummary;
 /** URL to get the parent issue of this issue, if it is a sub-issue @format uri */
 parent_issue_url?: string | null;
 pinned_comment?: NullableIssueComment;
 issue_dependencies_summary?: IssueDependenciesSummary;
 issue_field_values?: IssueFieldValue[];
};

/** A GitHub user. */
type NullableSimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
} | null;

type Label2 = {
 /** @format int64 */
 id?: number;
 node_id?: string;
 /** @format uri */
 url?: string;
 name?: string;
 description?: string | null;
 color?: string | null;
 default?: boolean;
};

/** A GitHub user. */
type SimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
};

/** A collection of related issues and pull requests. */
type NullableMilestone = {
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 labels_url: string;
 id: number;
 node_id: string;
 /** The number of the milestone. */
 number: number;
 /** The state of the milestone. @default "open" */
 state: "open" | "closed";
 /** The title of the milestone. */
 title: string;
 description: string | null;
 creator: NullableSimpleUser;
 open_issues: number;
 closed_issues: number;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 /** @format date-time */
 closed_at: string | null;
 /** @format date-time */
 due_on: string | null;
} | null;

type PullRequest2 = {
 /** @format date-time */
 merged_at?: string | null;
 /** @format uri */
 diff_url: string | null;
 /** @format uri */
 html_url: string | null;
 /** @format uri */
 patch_url: string | null;
 /** @format uri */
 url: string | null;
};

/** The type assigned to the issue. */
type IssueType = {
 /** The unique identifier of the issue type. */
 id: number;
 /** The node identifier of the issue type. */
 node_id: string;
 /** The name of the issue type. */
 name: string;
 /** The description of the issue type. */
 description: string | null;
 /** The color of the issue type. */
 color?: Color;
 /** The time the issue type created. @format date-time */
 created_at?: string;
 /** The time the issue type last updated. @format date-time */
 updated_at?: string;
 /** The enabled state of the issue type. */
 is_enabled?: boolean;
} | null;

/** A repository on GitHub. */
type Repository = {
 /** Unique identifier of the repository @format int64 */
 id: number;
 node_id: string;
 /** The name of the repository. */
 name: string;
 full_name: string;
 license: NullableLicenseSimple;
 forks: number;
 permissions?: Permission2;
 owner: SimpleUser;
 /** Whether the repository is private or public. */
 private: boolean;
 /** @format uri */
 html_url: string;
 description: string | null;
 fork: boolean;
 /** @format uri */
 url: string;
 archive_url: string;
 assignees_url: string;
 blobs_url: string;
 branches_url: string;
 collaborators_url: string;
 comments_url: string;
 commits_url: string;
 compare_url: string;
 contents_url: string;
 /** @format uri */
 contributors_url: string;
 /** @format uri */
 deployments_url: string;
 /** @format uri */
 downloads_url: string;
 /** @format uri */
 events_url: string;
 /** @format uri */
 forks_url: string;
 git_commits_url: string;
 git_refs_url: string;
 git_tags_url: string;
 git_url: string;
 issue_comment_url: string;
 issue_events_url: string;
 issues_url: string;
 keys_url: string;
 labels_url: string;
 /** @format uri */
 languages_url: string;
 /** @format uri */
 merges_url: string;
 milestones_url: string;
 notifications_url: string;
 pulls_url: string;
 releases_url: string;
 ssh_url: string;
 /** @format uri */
 stargazers_url: string;
 statuses_url: string;
 /** @format uri */
 subscribers_url: string;
 /** @format uri */
 subscription_url: string;
 /** @format uri */
 tags_url: string;
 /** @format uri */
 teams_url: string;
 trees_url: string;
 clone_url: string;
 /** @format uri */
 mirror_url: string | null;
 /** @format uri */
 hooks_url: string;
 /** @format uri */
 svn_url: string;
 /** @format uri */
 homepage: string | null;
 language: string | null;
 forks_count: number;
 stargazers_count: number;
 watchers_count: number;
 /** The size of the repository, in kilobytes. */
 size: number;
 /** The default branch of the repository. */
 default_branch: string;
 open_issues_count: number;
 /** Whether this repository acts as a template that can be used to generate new repositories. */
 is_template?: boolean;
 topics?: string[];
 /** Whether issues are enabled. @default true */
 has_issues: boolean;
 /** Whether projects are enabled. @default true */
 has_projects: boolean;
 /** Whether the wiki is enabled. @default true */
 has_wiki: boolean;
 has_pages: boolean;
 /** Whether downloads are enabled. @default true @deprecated */
 has_downloads: boolean;
 /** Whether discussions are enabled. */
 has_discussions?: boolean;
 /** Whether pull requests are enabled. @default true */
 has_pull_requests?: boolean;
 /** The policy controlling who can create pull requests: all or collaborators_only. */
 pull_request_creation_policy?: "all" | "collaborators_only";
 /** Whether the repository is archived. */
 archived: boolean;
 /** Returns whether or not this repository disabled. */
 disabled: boolean;
 /** The repository visibility: public, private, or internal. @default "public" */
 visibility?: string;
 /** @format date-time */
 pushed_at: string | null;
 /** @format date-time */
 created_at: string | null;
 /** @format date-time */
 updated_at: string | null;
 /** Whether to allow rebase merges for pull requests. @default true */
 allow_rebase_merge?: boolean;
 temp_clone_token?: string;
 /** Whether to allow squash merges for pull requests. @default true */
 allow_squash_merge?: boolean;
 /** Whether to allow Auto-merge to be used on pull requests. */
 allow_auto_merge?: boolean;
 /** Whether to delete head branches when pull requests are merged */
 delete_branch_on_merge?: boolean;
 /** Whether or not a pull request head branch that is behind its base branch can always be updated even if it is not required to be up to date before merging. */
 allow_update_branch?: boolean;
 /** Whether a squash merge commit can use the pull request title as default. **This property is closing down. @deprecated */
 use_squash_pr_title_as_default?: boolean;
 /** The default value for a squash merge commit title: */
 squash_merge_commit_title?: "PR_TITLE" | "COMMIT_OR_PR_TITLE";
 /** The default value for a squash merge commit message: */
 squash_merge_commit_message?: "PR_BODY" | "COMMIT_MESSAGES" | "BLANK";
 /** The default value for a merge commit title. */
 merge_commit_title?: "PR_TITLE" | "MERGE_MESSAGE";
 /** The default value for a merge commit message. */
 merge_commit_message?: "PR_BODY" | "PR_TITLE" | "BLANK";
 /** Whether to allow merge commits for pull requests. @default true */
 allow_merge_commit?: boolean;
 /** Whether to allow forking this repo */
 allow_forking?: boolean;
 /** Whether to require contributors to sign off on web-based commits */
 web_commit_signoff_required?: boolean;
 open_issues: number;
 watchers: number;
 master_branch?: string;
 starred_at?: string;
 /** Whether anonymous git access is enabled for this repository */
 anonymous_access_enabled?: boolean;
 /** The status of the code search index for this repository */
 code_search_index_status?: CodeSearchIndexStatus;
};

/** GitHub apps are a new way to extend GitHub. */
type NullableIntegration = {
 /** Unique identifier of the GitHub app */
 id: number;
 /** The slug name of the GitHub app */
 slug?: string;
 node_id: string;
 client_id?: string;
 owner: SimpleUser | Enterprise;
 /** The name of the GitHub app */
 name: string;
 description: string | null;
 /** @format uri */
 external_url: string;
 /** @format uri */
 html_url: string;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 /** The set of permissions for the GitHub app */
 permissions: Permission;
 /** The list of events for the GitHub app. */
 events: string[];
 /** The number of installations associated with the GitHub app. */
 installations_count?: number;
} | null;

/** How the author is associated with the repository. */
type AuthorAssociation = "COLLABORATOR" | "CONTRIBUTOR" | "FIRST_TIMER" | "FIRST_TIME_CONTRIBUTOR" | "MANNEQUIN" | "MEMBER" | "NONE" | "OWNER";

/** Reaction Rollup */
type ReactionRollup = {
 /** @format uri */
 url: string;
 total_count: number;
 "+1": number;
 "-1": number;
 laugh: number;
 confused: number;
 heart: number;
 hooray: number;
 eyes: number;
 rocket: number;
};

/** Sub-issues Summary */
type SubIssuesSummary = { total: number; completed: number; percent_completed: number };

/** Comments provide a way for people to collaborate on an issue. */
type NullableIssueComment = {
 /** Unique identifier of the issue comment @format int64 */
 id: number;
 node_id: string;
 /** URL for the issue comment @format uri */
 url: string;
 /** Contents of the issue comment */
 body?: string;
 body_text?: string;
 body_html?: string;
 /** @format uri */
 html_url: string;
 user: NullableSimpleUser;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 /** @format uri */
 issue_url: string;
 author_association?: AuthorAssociation;
 performed_via_github_app?: NullableIntegration;
 reactions?: ReactionRollup;
 pin?: NullablePinnedIssueComment;
 minimized?: NullableIssueCommentMinimized;
} | null;

/** Issue Dependencies Summary */
type IssueDependenciesSummary = {
 blocked_by: number;
 blocking: number;
 total_blocked_by: number;
 total_blocking: number;
};

/** A value assigned to an issue field */
type IssueFieldValue = {
 /** Unique identifier for the issue field. @format int64 */
 issue_field_id: number;
 /** The human-readable name of the issue field. */
 issue_field_name?: string;
 node_id: string;
 /** The data type of the issue field */
 data_type: "text" | "single_select" | "multi_select" | "number" | "date";
 /** The value of the issue field */
 value: string | number | null;
 /** Details about the selected option (only present for single_select fields) */
 single_select_option?: {
  /** Unique identifier for the option. @format int64 */
  id: number;
  /** The name of the option */
  name: string;
  /** The color of the option */
  color: string;
 } | null;
 /** Details about the selected options */
 multi_select_options?: {
  /** Unique identifier for the option. @format int64 */
  id: number;
  /** The name of the option */
  name: string;
  /** The color of the option */
  color: string;
 }[] | null;
};

/** The color of the issue type. */
type Color = "gray" | "blue" | "green" | "yellow" | "orange" | "red" | "pink" | "purple" | null;

/** License Simple */
type NullableLicenseSimple = {
 key: string;
 name: string;
 /** @format uri */
 url: string | null;
 spdx_id: string | null;
 node_id: string;
 /** @format uri */
 html_url?: string;
} | null;

type Permission2 = {
 admin: boolean;
 pull: boolean;
 triage?: boolean;
 push: boolean;
 maintain?: boolean;
};

/** The status of the code search index for this repository */
type CodeSearchIndexStatus = { lexical_search_ok?: boolean; lexical_commit_sha?: string };

/** An enterprise on GitHub. */
type Enterprise = {
 /** A short description of the enterprise. */
 description?: string | null;
 /** @format uri */
 html_url: string;
 /** The enterprise's website URL. @format uri */
 website_url?: string | null;
 /** Unique identifier of the enterprise */
 id: number;
 node_id: string;
 /** The name of the enterprise. */
 name: string;
 /** The slug url identifier for the enterprise. */
 slug: string;
 /** @format date-time */
 created_at: string | null;
 /** @format date-time */
 updated_at: string | null;
 /** @format uri */
 avatar_url: string;
};

/** The set of permissions for the GitHub app */
type Permission = {
 issues?: string;
 checks?: string;
 metadata?: string;
 contents?: string;
 deployments?: string;
 [key: string]: string | undefined;
};

/** Context around who pinned an issue comment and when it was pinned. */
type NullablePinnedIssueComment = {
 /** @format date-time */
 pinned_at: string;
 pinned_by: NullableSimpleUser;
} | null;

/** Details about why an issue comment was minimized. */
type NullableIssueCommentMinimized = {
 /** The reason the comment was minimized. */
 reason: string | null;
} | null;

type IssuesCreateInput = {
 /** The account owner of the repository. The name is not case sensitive. */
 owner: string;
 /** The name of the repository without the `.git` extension. The name is not case sensitive. */
 repo: string;
 body: {
  /** The title of the issue. */
  title: string | number;
  /** The contents of the issue. */
  body?: string;
  /** Login for the user that this issue should be assigned to. _NOTE: Only users with push access can set the assignee for new issues. The assignee is silently dropped otherwise. **This field is closing down.**_ */
  assignee?: string | null;
  milestone?: string | number | null;
  /** Labels to associate with this issue. _NOTE: Only users with push access can set labels for new issues. Labels are silently dropped otherwise._ */
  labels?: (string | {
   id?: number;
   name?: string;
   description?: string | null;
   color?: string | null;
  })[];
  /** Logins for Users to assign to this issue. _NOTE: Only users with push access can set assignees for new issues. Assignees are silently dropped otherwise._ */
  assignees?: string[];
  /** An array of issue field values to set on this issue. Each field value must include the field ID and the value to set. Issue fields are only available for organization-owned repositories with the feature enabled. Field values are silently dropped otherwise. */
  issue_field_values?: {
   /** The ID of the issue field to set */
   field_id: number;
   /** The value to set for the field. For multi-select fields, provide an array of option names. */
   value: string | number | string[];
  }[];
  /** The name of the issue type to associate with this issue. _NOTE: Only users with push access can set the type for new issues. The type is silently dropped otherwise._ */
  type?: string | null;
 };
};
type IssuesCreateOutput = Issue;

declare const github: {
 /**
  * Create an issue
  * @approval the run pauses at the call until a person approves it
  */
 issues_create(input: IssuesCreateInput): Promise<IssuesCreateOutput>;
};

// github.gists_create
/** Gist Simple */
type GistSimple = {
 /** @deprecated */
 forks?: {
  id?: string;
  /** @format uri */
  url?: string;
  user?: PublicUser;
  /** @format date-time */
  created_at?: string;
  /** @format date-time */
  updated_at?: string;
 }[] | null;
 /** @deprecated */
 history?: GistHistory[] | null;
 /** Gist */
 fork_of?: {
  /** @format uri */
  url: string;
  /** @format uri */
  forks_url: string;
  /** @format uri */
  commits_url: string;
  id: string;
  node_id: string;
  /** @format uri */
  git_pull_url: string;
  /** @format uri */
  git_push_url: string;
  /** @format uri */
  html_url: string;
  files: Record<string, {
    filename?: string;
    type?: string;
    language?: string;
    raw_url?: string;
    size?: number;
   }>;
  public: boolean;
  /** @format date-time */
  created_at: string;
  /** @format date-time */
  updated_at: string;
  description: string | null;
  comments: number;
  comments_enabled?: boolean;
  user: NullableSimpleUser;
  /** @format uri */
  comments_url: string;
  owner?: NullableSimpleUser;
  truncated?: boolean;
  forks?: unknown[];
  history?: unknown[];
 } | null;
 url?: string;
 forks_url?: string;
 commits_url?: string;
 id?: string;
 node_id?: string;
 git_pull_url?: string;
 git_push_url?: string;
 html_url?: string;
 files?: Record<string, {
   filename?: string;
   type?: string;
   language?: string;
   raw_url?: string;
   size?: number;
   truncated?: boolean;
   content?: string;
   /** The encoding used for `content`. @default "utf-8" */
   encoding?: string;
  } | null>;
 public?: boolean;
 created_at?: string;
 updated_at?: string;
 description?: string | null;
 comments?: number;
 comments_enabled?: boolean;
 user?: string | null;
 comments_url?: string;
 owner?: SimpleUser;
 truncated?: boolean;
};

/** Public User */
type PublicUser = {
 login: string;
 /** @format int64 */
 id: number;
 user_view_type?: string;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 name: string | null;
 company: string | null;
 blog: string | null;
 location: string | null;
 /** @format email */
 email: string | null;
 /** @format email */
 notification_email?: string | null;
 hireable: boolean | null;
 bio: string | null;
 twitter_username?: string | null;
 public_repos: number;
 public_gists: number;
 followers: number;
 following: number;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 plan?: Plan;
 private_gists?: number;
 total_private_repos?: number;
 owned_private_repos?: number;
 disk_usage?: number;
 collaborators?: number;
};

/** Gist History */
type GistHistory = {
 user?: NullableSimpleUser;
 version?: string;
 /** @format date-time */
 committed_at?: string;
 change_status?: ChangeStatus;
 /** @format uri */
 url?: string;
};

/** A GitHub user. */
type NullableSimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
} | null;

/** A GitHub user. */
type SimpleUser = {
 name?: string | null;
 email?: string | null;
 login: string;
 /** @format int64 */
 id: number;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 starred_at?: string;
 user_view_type?: string;
};

type Plan = { collaborators: number; name: string; space: number; private_repos: number };

type ChangeStatus = { total?: number; additions?: number; deletions?: number };

type GistsCreateInput = {
 body: {
  /** Description of the gist */
  description?: string;
  /** Names and content for the files that make up the gist */
  files: Record<string, {
    /** Content of the file */
    content: string;
   }>;
  public?: boolean | "true" | "false";
 };
};
type GistsCreateOutput = GistSimple;

declare const github: {
 /**
  * Create a gist
  * @approval the run pauses at the call until a person approves it
  */
 gists_create(input: GistsCreateInput): Promise<GistsCreateOutput>;
};

// github.git_create_tree
/** The hierarchy between files in a Git repository. */
type GitTree = {
 sha: string;
 /** @format uri */
 url?: string;
 truncated: boolean;
 /** Objects specifying a tree structure */
 tree: {
  path: string;
  mode: string;
  type: string;
  sha: string;
  size?: number;
  url?: string;
 }[];
};

type GitCreateTreeInput = {
 /** The account owner of the repository. The name is not case sensitive. */
 owner: string;
 /** The name of the repository without the `.git` extension. The name is not case sensitive. */
 repo: string;
 body: {
  /** Objects (of `path`, `mode`, `type`, and `sha`) specifying a tree structure. */
  tree: {
   /** The file referenced in the tree. */
   path?: string;
   /** The file mode; one of `100644` for file (blob), `100755` for executable (blob), `040000` for subdirectory (tree), `160000` for submodule (commit), or `120000` for a blob that specifies the path of a symlink. */
   mode?: "100644" | "100755" | "040000" | "160000" | "120000";
   /** Either `blob`, `tree`, or `commit`. */
   type?: "blob" | "tree" | "commit";
   /**
    * The SHA1 checksum ID of the object in the tree. Also called `tree.sha`. If the value is `null` then the file will be deleted.
    *
    * **Note:** Use either `tree.sha` or `content` to specify the contents of the entry. Using both `tree.sha` and `content` will return an error.
    */
   sha?: string | null;
   /**
    * The content you want this file to have. GitHub will write this blob out and use that SHA for this entry. Use either this, or `tree.sha`.
    *
    * **Note:** Use either `tree.sha` or `content` to specify the contents of the entry. Using both `tree.sha` and `content` will return an error.
    */
   content?: string;
  }[];
  /**
   * The SHA1 of an existing Git tree object which will be used as the base for the new tree. If provided, a new Git tree object will be created from entries in the Git tree object pointed to by `base_tree` and entries defined in the `tree` parameter. Entries defined in the `tree` parameter will overwrite items from `base_tree` with the same `path`. If you're creating new changes on a branch, then normally you'd set `base_tree` to the SHA1 of the Git tree object of the current latest commit on the branch you're working on.
   * If not provided, GitHub will create a new Git tree object from only the entries defined in the `tree` parameter. If you create a new commit pointing to such a tree, then all files which were a part of the parent commit's tree and were not defined in the `tree` parameter will be listed as deleted by the new commit.
   */
  base_tree?: string;
 };
};
type GitCreateTreeOutput = GitTree;

declare const github: {
 /**
  * Create a tree
  * @approval the run pauses at the call until a person approves it
  */
 git_create_tree(input: GitCreateTreeInput): Promise<GitCreateTreeOutput>;
};

// github.repos_create_or_update_file_contents
/** File Commit */
type FileCommit = {
 content: {
  name?: string;
  path?: string;
  sha?: string;
  size?: number;
  url?: string;
  html_url?: string;
  git_url?: string;
  download_url?: string;
  type?: string;
  _links?: { self?: string; git?: string; html?: string };
 } | null;
 commit: {
  sha?: string;
  node_id?: string;
  url?: string;
  html_url?: string;
  author?: Author2;
  committer?: Author2;
  message?: string;
  tree?: { url?: string; sha?: string };
  parents?: Parent[];
  verification?: {
   verified?: boolean;
   reason?: string;
   signature?: string | null;
   payload?: string | null;
   verified_at?: string | null;
  };
 };
};

type Author2 = { date?: string; name?: string; email?: string };

type Parent = { url?: string; html_url?: string; sha?: string };

type ReposCreateOrUpdateFileContentsInput = {
 /** The account owner of the repository. The name is not case sensitive. */
 owner: string;
 /** The name of the repository without the `.git` extension. The name is not case sensitive. */
 repo: string;
 /** path parameter */
 path: string;
 body: {
  /** The commit message. */
  message: string;
  /** The new file content, using Base64 encoding. */
  content: string;
  /** **Required if you are updating a file**. The blob SHA of the file being replaced. */
  sha?: string;
  /** The branch name. Default: the repository’s default branch. */
  branch?: string;
  /** The person that committed the file. Default: the authenticated user. */
  committer?: {
   /** The name of the author or committer of the commit. You'll receive a `422` status code if `name` is omitted. */
   name: string;
   /** The email of the author or committer of the commit. You'll receive a `422` status code if `email` is omitted. */
   email: string;
   date?: string;
  };
  /** The author of the file. Default: The `committer` or the authenticated user if you omit `committer`. */
  author?: {
   /** The name of the author or committer of the commit. You'll receive a `422` status code if `name` is omitted. */
   name: string;
   /** The email of the author or committer of the commit. You'll receive a `422` status code if `email` is omitted. */
   email: string;
   date?: string;
  };
 };
};
type ReposCreateOrUpdateFileContentsOutput = FileCommit;

declare const github: {
 /**
  * Create or update file contents
  * @approval the run pauses at the call until a person approves it
  */
 repos_create_or_update_file_contents(input: ReposCreateOrUpdateFileContentsInput): Promise<ReposCreateOrUpdateFileContentsOutput>;
};

// github.repos_delete
type ReposDeleteInput = {
 /** The account owner of the repository. The name is not case sensitive. */
 owner: string;
 /** The name of the repository without the `.git` extension. The name is not case sensitive. */
 repo: string;
};
type ReposDeleteOutput = unknown;

declare const github: {
 /**
  * Delete a repository
  * @approval the run pauses at the call until a person approves it
  */
 repos_delete(input: ReposDeleteInput): Promise<ReposDeleteOutput>;
};

// github.markdown_render
type MarkdownRenderInput = {
 body: {
  /** The Markdown text to render in HTML. */
  text: string;
  /**
   * The rendering mode.
   * @default "markdown"
   */
  mode?: "markdown" | "gfm";
  /** The repository context to use when creating references in `gfm` mode. For example, setting `context` to `octo-org/octo-repo` will change the text `#42` into an HTML link to issue 42 in the `octo-org/octo-repo` repository. */
  context?: string;
 };
};
type MarkdownRenderOutput = string;

declare const github: {
 /**
  * Render a Markdown document
  * @approval the run pauses at the call until a person approves it
  */
 markdown_render(input: MarkdownRenderInput): Promise<MarkdownRenderOutput>;
};

// github.users_get_authenticated
/** Private User */
type PrivateUser = {
 login: string;
 /** @format int64 */
 id: number;
 user_view_type?: string;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 name: string | null;
 company: string | null;
 blog: string | null;
 location: string | null;
 /** @format email */
 email: string | null;
 /** @format email */
 notification_email?: string | null;
 hireable: boolean | null;
 bio: string | null;
 twitter_username?: string | null;
 public_repos: number;
 public_gists: number;
 followers: number;
 following: number;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 private_gists: number;
 total_private_repos: number;
 owned_private_repos: number;
 disk_usage: number;
 collaborators: number;
 two_factor_authentication: boolean;
 plan?: Plan;
 business_plus?: boolean;
 ldap_dn?: string;
};

/** Public User */
type PublicUser = {
 login: string;
 /** @format int64 */
 id: number;
 user_view_type?: string;
 node_id: string;
 /** @format uri */
 avatar_url: string;
 gravatar_id: string | null;
 /** @format uri */
 url: string;
 /** @format uri */
 html_url: string;
 /** @format uri */
 followers_url: string;
 following_url: string;
 gists_url: string;
 starred_url: string;
 /** @format uri */
 subscriptions_url: string;
 /** @format uri */
 organizations_url: string;
 /** @format uri */
 repos_url: string;
 events_url: string;
 /** @format uri */
 received_events_url: string;
 type: string;
 site_admin: boolean;
 name: string | null;
 company: string | null;
 blog: string | null;
 location: string | null;
 /** @format email */
 email: string | null;
 /** @format email */
 notification_email?: string | null;
 hireable: boolean | null;
 bio: string | null;
 twitter_username?: string | null;
 public_repos: number;
 public_gists: number;
 followers: number;
 following: number;
 /** @format date-time */
 created_at: string;
 /** @format date-time */
 updated_at: string;
 plan?: Plan;
 private_gists?: number;
 total_private_repos?: number;
 owned_private_repos?: number;
 disk_usage?: number;
 collaborators?: number;
};

type Plan = { collaborators: number; name: string; space: number; private_repos: number };

type UsersGetAuthenticatedInput = {};
type UsersGetAuthenticatedOutput = PrivateUser | PublicUser;

declare const github: {
 /** Get the authenticated user */
 users_get_authenticated(input?: UsersGetAuthenticatedInput): Promise<UsersGetAuthenticatedOutput>;
};

// github.code_security_create_configuration
/** Security Configuration feature options for code scanning */
type CodeScanningOptions = {
 /** Whether to allow repos which use advanced setup */
 allow_advanced?: boolean | null;
} | null;

/** Feature options for code scanning default setup */
type CodeScanningDefaultSetupOptions = {
 /** Whether to use labeled runners or standard GitHub runners. */
 runner_type?: "standard" | "labeled" | "not_set";
 /** The label of the runner to use for code scanning default setup when runner_type is 'labeled'. */
 runner_label?: string | null;
} | null;

type Reviewer = {
 /** The ID of the team or role selected as a bypass reviewer */
 reviewer_id: number;
 /** The type of the bypass reviewer */
 reviewer_type: "TEAM" | "ROLE";
 /**
  * The bypass mode for the reviewer
  * @default "ALWAYS"
  */
 mode?: "ALWAYS" | "EXEMPT";
};

/** A code security configuration */
type CodeSecurityConfiguration = {
 /** The ID of the code security configuration */
 id?: number;
 /** The name of the code security configuration. */
 name?: string;
 /** The type of the code security configuration. */
 target_type?: "global" | "organization" | "enterprise";
 /** A description of the code security configuration */
 description?: string | null;
 /** The enablement status of GitHub Advanced Security */
 advanced_security?: "enabled" | "disabled" | "code_security" | "secret_protection";
 /** The enablement status of Dependency Graph */
 dependency_graph?: "enabled" | "disabled" | "not_set";
 /** The enablement status of Automatic dependency submission */
 dependency_graph_autosubmit_action?: "enabled" | "disabled" | "not_set";
 /** Feature options for Automatic dependency submission */
 dependency_graph_autosubmit_action_options?: {
  /** Whether to use runners labeled with 'dependency-submission' or standard GitHub runners. */
  labeled_runners?: boolean;
 };
 /** The enablement status of Dependabot alerts */
 dependabot_alerts?: "enabled" | "disabled" | "not_set";
 /** The enablement status of Dependabot security updates */
 dependabot_security_updates?: "enabled" | "disabled" | "not_set";
 /** The enablement status of Dependabot delegated alert dismissal */
 dependabot_delegated_alert_dismissal?: "enabled" | "disabled" | "not_set" | null;
 /** Feature options for code scanning */
 code_scanning_options?: {
  /** Whether to allow repos which use advanced setup */
  allow_advanced?: boolean | null;
 } | null;
 /** The enablement status of code scanning default setup */
 code_scanning_default_setup?: "enabled" | "disabled" | "not_set";
 /** Feature options for code scanning default setup */
 code_scanning_default_setup_options?: {
  /** Whether to use labeled runners or standard GitHub runners. */
  runner_type?: "standard" | "labeled" | "not_set" | null;
  /** The label of the runner to use for code scanning when runner_type is 'labeled'. */
  runner_label?: string | null;
 } | null;
 /** The enablement status of code scanning delegated alert dismissal */
 code_scanning_delegated_alert_dismissal?: "enabled" | "disabled" | "not_set";
 /** The enablement status of secret scanning */
 secret_scanning?: "enabled" | "disabled" | "not_set";
 /** The enablement status of secret scanning push protection */
 secret_scanning_push_protection?: "enabled" | "disabled" | "not_set";
 /** The enablement status of secret scanning delegated bypass */
 secret_scanning_delegated_bypass?: "enabled" | "disabled" | "not_set";
 /** Feature options for secret scanning delegated bypass */
 secret_scanning_delegated_bypass_options?: {
  /** The bypass reviewers for secret scanning delegated bypass */
  reviewers?: {
   /** The ID of the team or role selected as a bypass reviewer */
   reviewer_id: number;
   /** The type of the bypass reviewer */
   reviewer_type: "TEAM" | "ROLE";
   /** The bypass mode for the reviewer @default "ALWAYS" */
   mode?: "ALWAYS" | "EXEMPT";
   /** The ID of the security configuration associated with this bypass reviewer */
   security_configuration_id?: number;
  }[];
 };
 /** The enablement status of secret scanning validity checks */
 secret_scanning_validity_checks?: "enabled" | "disabled" | "not_set";
 /** The enablement status of secret scanning non-provider patterns */
 secret_scanning_non_provider_patterns?: "enabled" | "disabled" | "not_set";
 /** The enablement status of Copilot secret scanning */
 secret_scanning_generic_secrets?: "enabled" | "disabled" | "not_set";
 /** The enablement status of secret scanning delegated alert dismissal */
 secret_scanning_delegated_alert_dismissal?: "enabled" | "disabled" | "not_set";
 /** The enablement status of secret scanning extended metadata */
 secret_scanning_extended_metadata?: "enabled" | "disabled" | "not_set";
 /** The enablement status of private vulnerability reporting */
 private_vulnerability_reporting?: "enabled" | "disabled" | "not_set";
 /** The enforcement status for a security configuration */
 enforcement?: "enforced" | "unenforced";
 /** The URL of the configuration @format uri */
 url?: string;
 /** The URL of the configuration @format uri */
 html_url?: string;
 /** @format date-time */
 created_at?: string;
 /** @format date-time */
 updated_at?: string;
};

type CodeSecurityCreateConfigurationInput = {
 /** The organization name. The name is not case sensitive. */
 org: string;
 body: {
  /** The name of the code security configuration. Must be unique within the organization. */
  name: string;
  /**
   * A description of the code security configuration
   * @maxLength 255
   */
  description?: string;
  /**
   * The enablement status of GitHub Advanced Security features. `enabled` will enable both Code Security and Secret Protection features.
   *
   * > [!WARNING]
   * > `code_security` and `secret_protection` are deprecated values for this field. Prefer the individual `code_security` and `secret_protection` fields to set the status of these features.
   * @default "disabled"
   */
  advanced_security?: "enabled" | "disabled" | "code_security" | "secret_protection";
  /** The enablement status of GitHub Code Security features. */
  code_security?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of Dependency Graph
   * @default "enabled"
   */
  dependency_graph?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of Automatic dependency submission
   * @default "disabled"
   */
  dependency_graph_autosubmit_action?: "enabled" | "disabled" | "not_set";
  /** Feature options for Automatic dependency submission */
  dependency_graph_autosubmit_action_options?: {
   /** Whether to use runners labeled with 'dependency-submission' or standard GitHub runners. */
   labeled_runners?: boolean;
  };
  /**
   * The enablement status of Dependabot alerts
   * @default "disabled"
   */
  dependabot_alerts?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of Dependabot security updates
   * @default "disabled"
   */
  dependabot_security_updates?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of Dependabot delegated alert dismissal. Requires Dependabot alerts to be enabled.
   * @default "disabled"
   */
  dependabot_delegated_alert_dismissal?: "enabled" | "disabled" | "not_set";
  code_scanning_options?: CodeScanningOptions;
  /**
   * The enablement status of code scanning default setup
   * @default "disabled"
   */
  code_scanning_default_setup?: "enabled" | "disabled" | "not_set";
  code_scanning_default_setup_options?: CodeScanningDefaultSetupOptions;
  /**
   * The enablement status of code scanning delegated alert dismissal
   * @default "not_set"
   */
  code_scanning_delegated_alert_dismissal?: "enabled" | "disabled" | "not_set";
  /** The enablement status of GitHub Secret Protection features. */
  secret_protection?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of secret scanning
   * @default "disabled"
   */
  secret_scanning?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of secret scanning push protection
   * @default "disabled"
   */
  secret_scanning_push_protection?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of secret scanning delegated bypass
   * @default "disabled"
   */
  secret_scanning_delegated_bypass?: "enabled" | "disabled" | "not_set";
  /** Feature options for secret scanning delegated bypass */
  secret_scanning_delegated_bypass_options?: {
   /** The bypass reviewers for secret scanning delegated bypass */
   reviewers?: Reviewer[];
  };
  /**
   * The enablement status of secret scanning validity checks
   * @default "disabled"
   */
  secret_scanning_validity_checks?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of secret scanning non provider patterns
   * @default "disabled"
   */
  secret_scanning_non_provider_patterns?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of Copilot secret scanning
   * @default "disabled"
   */
  secret_scanning_generic_secrets?: "enabled" | "disabled" | "not_set";
  /** The enablement status of secret scanning delegated alert dismissal */
  secret_scanning_delegated_alert_dismissal?: "enabled" | "disabled" | "not_set";
  /** The enablement status of secret scanning extended metadata */
  secret_scanning_extended_metadata?: "enabled" | "disabled" | "not_set";
  /**
   * The enablement status of private vulnerability reporting
   * @default "disabled"
   */
  private_vulnerability_reporting?: "enabled" | "disabled" | "not_set";
  /**
   * The enforcement status for a security configuration
   * @default "enforced"
   */
  enforcement?: "enforced" | "unenforced";
 };
};
type CodeSecurityCreateConfigurationOutput = CodeSecurityConfiguration;

declare const github: {
 /**
  * Create a code security configuration
  * @approval the run pauses at the call until a person approves it
  */
 code_security_create_configuration(input: CodeSecurityCreateConfigurationInput): Promise<CodeSecurityCreateConfigurationOutput>;
};
