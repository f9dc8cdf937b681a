import type { MainApiClient } from "@cloudcost/client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { authKeys } from "./keys";

type SignupBody = NonNullable<Parameters<MainApiClient["completeSignup"]>[0]>["body"];

/** The invitations waiting for the signed-in identity's e-mail address. */
export function useReceivedInvitations() {
  const { client, token } = useApp();
  return useQuery({ queryKey: authKeys.receivedInvitations(token), queryFn: () => client.main.listReceivedInvitations(), enabled: !!token });
}

/**
 * Joining an organization (accepting an invitation) or creating one: either changes what every
 * query answers, so all are invalidated before `onJoined` runs.
 */
export function useJoin(onJoined: () => void) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const joined = async () => {
    await queryClient.invalidateQueries();
    onJoined();
  };
  const accept = useMutation({ mutationFn: (id: string) => client.main.acceptInvitation({ params: { id } }), onSuccess: joined });
  const signup = useMutation({ mutationFn: (body: SignupBody) => client.main.completeSignup({ body }), onSuccess: joined });
  return { accept, signup };
}
