/** The sign-in pages' query keys. */
export const authKeys = {
  receivedInvitations: (token: string | undefined) => ["received-invitations", token] as const,
};
