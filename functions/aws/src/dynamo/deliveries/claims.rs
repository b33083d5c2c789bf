//! The claim's conditional update: a fresh claim, or the takeover of one whose
//! lease ended (kept as `lostClaim`).

use super::*;

impl DynamoStore {
    /// The claim's `UpdateItem`: with `expired` None only when no claim is held;
    /// with the expired claim to take over, only while that very claim is held,
    /// and then it is kept as `lostClaim`.
    pub(super) async fn claim_update(
        &self,
        id: &DeliveryId,
        claim: &ClaimRecord,
        expired: Option<&ClaimRecord>,
    ) -> Result<
        aws_sdk_dynamodb::operation::update_item::UpdateItemOutput,
        aws_sdk_dynamodb::error::SdkError<UpdateItemError>,
    > {
        let now = claim.started_at;
        let mut values: Item = HashMap::from([
            (":number".to_owned(), n(claim.number)),
            (":succeeded".to_owned(), s("succeeded")),
            (":failed".to_owned(), s("failed")),
            (":dropped".to_owned(), s("dropped")),
            (":now".to_owned(), n(now_secs(self.now()))),
            (":claimId".to_owned(), s(claim.attempt_id.as_str())),
            (":claimToken".to_owned(), s(claim.token.as_str())),
            (":lease".to_owned(), n(claim.lease_until.millis())),
            (":started".to_owned(), n(now.millis())),
            (":one".to_owned(), n(1)),
        ]);
        let base = "attribute_exists(PK) AND #nextAttempt = :number \
            AND NOT (#status IN (:succeeded, :failed, :dropped)) \
            AND (attribute_not_exists(expiresAt) OR expiresAt > :now)";
        let set = "SET #claimId = :claimId, #claimLease = :lease, #claimNumber = :number, \
                 #claimStarted = :started, #claimToken = :claimToken, #version = #version + :one";
        let (condition, update) = match expired {
            None => (
                format!("{base} AND attribute_not_exists(#claimLease)"),
                format!("{set} REMOVE #throttledUntil"),
            ),
            Some(old) => {
                values.insert(":oldId".to_owned(), s(old.attempt_id.as_str()));
                values.insert(":oldToken".to_owned(), s(old.token.as_str()));
                values.insert(":nowms".to_owned(), n(now.millis()));
                values.insert(":lost".to_owned(), s(lost_claim_text(old)));
                (
                    format!("{base} AND #claimId = :oldId AND #claimToken = :oldToken AND #claimLease <= :nowms"),
                    format!("{set}, #lostClaim = :lost REMOVE #throttledUntil"),
                )
            }
        };
        let mut names_list = vec![
            ("#version", VERSION),
            ("#nextAttempt", NEXT_ATTEMPT),
            ("#status", STATUS),
            ("#claimId", CLAIM_ID),
            ("#claimLease", CLAIM_LEASE),
            ("#claimNumber", CLAIM_NUMBER),
            ("#claimStarted", CLAIM_STARTED),
            ("#claimToken", CLAIM_TOKEN),
            ("#throttledUntil", THROTTLED_UNTIL),
        ];
        if expired.is_some() {
            names_list.push(("#lostClaim", LOST_CLAIM));
        }
        self.client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(delivery_pk(id), DELIVERY_SK)))
            .update_expression(update)
            .condition_expression(condition)
            .set_expression_attribute_names(Some(names(&names_list)))
            .set_expression_attribute_values(Some(values))
            .return_values(ReturnValue::AllOld)
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await
    }

    /// Takes over `expired`, the claim `current` holds past its lease: a write
    /// conditional on that claim, keeping it as `lostClaim`. Its repeat after a
    /// lost answer finds the claim ours and the lost one on the item.
    pub(super) async fn take_over(
        &self,
        id: &DeliveryId,
        claim: &ClaimRecord,
        current: Delivery,
        expired: ClaimRecord,
    ) -> PortResult<Claim> {
        match self.claim_update(id, claim, Some(&expired)).await {
            Ok(_) => Ok(Claim::Claimed {
                delivery: apply_claim(&current, claim),
                lost: Some(expired),
            }),
            Err(e) => {
                let old = match e.as_service_error() {
                    Some(UpdateItemError::ConditionalCheckFailedException(c)) => c.item.clone(),
                    _ => return Err(from_sdk(e)),
                };
                let Some(old) = old.filter(|i| is_live(get_n(i, TTL_ATTR), self.now())) else {
                    return Ok(Claim::Refused(None));
                };
                let now_held = self.one_delivery(old).await?;
                if claim_held_by(&now_held, claim) && !now_held.status.is_settled() {
                    return Ok(Claim::Claimed {
                        delivery: now_held,
                        lost: Some(expired),
                    });
                }
                Ok(Claim::Refused(Some(now_held)))
            }
        }
    }
}
